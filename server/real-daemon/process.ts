/**
 * Runs an installed real daemon as a child process on 127.0.0.1, with no robot: the mockup
 * backend (no physics) or MuJoCo (`--sim --headless`), no media, no dataset downloads, Hugging
 * Face offline. Port 0 lets uvicorn pick a free port, read back from its "running on" line; a
 * restart after a kill reuses that port so a cockpit pointed at it can reconnect.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Flavour, VenvPaths } from './venv.ts';
import { withDeadline } from '../deadline.ts';
import { holdsEventually } from '../testing/eventually.ts';

export interface RealDaemonOptions {
  paths: VenvPaths;
  /** 0 (the default) picks a free port. */
  port?: number;
  flavour?: Flavour;
  /** Every line the daemon logs (stdout and stderr). */
  onLine?: (line: string) => void;
  /** Bound on start-up, to the daemon answering `running`. */
  readyTimeoutMs?: number;
}

export interface RealDaemon {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** The last lines the daemon logged, for failure messages. */
  tail(): string;
  /** SIGKILL, as a crash would; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers `running`. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const RUNNING_ON = /Uvicorn running on http:\/\/127\.0\.0\.1:(\d+)/;

export function daemonArgs(port: number, flavour: Flavour): string[] {
  return [
    flavour === 'mujoco' ? '--sim' : '--mockup-sim',
    '--no-media',
    '--headless',
    '--fastapi-host',
    '127.0.0.1',
    '--fastapi-port',
    String(port),
    '--no-preload-datasets',
    '--dataset-update-interval',
    '0',
  ];
}

export async function startRealDaemon(options: RealDaemonOptions): Promise<RealDaemon> {
  const flavour = options.flavour ?? 'mockup';
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const lines: string[] = [];
  let child: ChildProcess | undefined;
  let port = options.port ?? 0;

  const launch = async (): Promise<void> => {
    const proc = spawn(options.paths.daemon, daemonArgs(port, flavour), {
      // The recorded-move datasets cannot be fetched here: fail fast instead of waiting on the hub.
      // Since 1.13 the daemon sends anonymous usage telemetry unless the environment forbids it;
      // a test or a try-out run has nothing to report.
      env: {
        ...process.env,
        HF_HUB_OFFLINE: '1',
        PYTHONUNBUFFERED: '1',
        REACHY_MINI_TELEMETRY: '0',
        DO_NOT_TRACK: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = proc;
    const bound = new Promise<number>((resolve, reject) => {
      const onText = (d: Buffer) => {
        for (const line of d.toString().split('\n')) {
          // The start-up poll's own access lines would push what went wrong out of the tail.
          if (!line || line.includes('"GET /api/daemon/status ')) continue;
          lines.push(line);
          if (lines.length > 200) lines.shift();
          options.onLine?.(line);
          const match = RUNNING_ON.exec(line);
          if (match) resolve(Number(match[1]));
        }
      };
      proc.stdout?.on('data', onText);
      proc.stderr?.on('data', onText);
      proc.once('error', reject);
      proc.once('exit', (code) => reject(new Error(`real daemon exited (${code}) before listening:\n${tail()}`)));
    });
    port = await withTimeout(bound, readyTimeoutMs, 'listen');
    const status = { last: 'no answer' };
    if (!(await untilRunning(`http://127.0.0.1:${port}`, Date.now() + readyTimeoutMs, status))) {
      throw new Error(`real daemon did not answer running within ${readyTimeoutMs} ms (last status: ${status.last}):\n${tail()}`);
    }
  };
  const tail = () => lines.slice(-30).join('\n');
  const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`real daemon did not ${what} within ${ms} ms:\n${tail()}`)), ms);
      p.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  const terminate = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    // Its own process group (detached): helpers it spawned go with it.
    try {
      process.kill(-(proc.pid as number), signal);
    } catch {
      proc.kill(signal);
    }
    if (signal === 'SIGKILL') return gone;
    const timer = setTimeout(() => void terminate('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  };

  try {
    await launch();
  } catch (err) {
    await terminate('SIGKILL');
    throw err;
  }
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    get pid() {
      return child?.pid ?? 0;
    },
    tail,
    kill: () => terminate('SIGKILL'),
    async restart() {
      await terminate('SIGKILL');
      await launch();
    },
    close: () => terminate('SIGTERM'),
  };
}

/** Polls the status route until the backend is running; connection refusals are expected early. */
function untilRunning(url: string, deadline: number, status: { last: string }): Promise<boolean> {
  return holdsEventually(
    async () => {
      // The status read is bounded as a whole, body included, whatever the collector does (server/deadline.ts).
      const { res, text } = await withDeadline(2000, async (signal) => {
        const answer = await fetch(`${url}/api/daemon/status`, { signal });
        return { res: answer, text: await answer.text() };
      });
      status.last = `${res.status} ${text.slice(0, 300)}`;
      return res.ok && (JSON.parse(text) as { state?: string }).state === 'running';
    },
    { timeoutMs: Math.max(0, deadline - Date.now()), intervalMs: 100 },
  );
}
