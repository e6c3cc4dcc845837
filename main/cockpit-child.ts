/**
 * The process boundary of the supervised headless cockpit: the parent forks `main/serve.ts`
 * (the same server `npm run serve` runs) with a Node IPC channel, and the child says on that
 * channel when it listens. Nothing else crosses: the dashboard talks HTTP and WebSocket to the
 * server as always, and the stored data lives in the data folder, which both sides name.
 * A spare (main/supervisor.ts) is forked as `serve standby [flags]`: it loads, says so, and
 * waits for the parent's go before it starts.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StartChild } from './supervisor.ts';

/** What a forked server says once it listens. */
export interface CockpitReady {
  type: 'cockpit-ready';
  pid: number;
  /** The desktop server, when it runs: its base URL on this host and its port. */
  a?: { url: string; port: number; simulated: boolean };
  /** The wheeled server, when it runs. */
  b?: { url: string; port: number };
}

export function isCockpitReady(message: unknown): message is CockpitReady {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'cockpit-ready';
}

/** Child side: tells the parent (if this process was forked with IPC) that the server listens. */
export function announceReady(ready: Omit<CockpitReady, 'type' | 'pid'>, proc: Pick<NodeJS.Process, 'send' | 'pid'> = process): void {
  proc.send?.({ type: 'cockpit-ready', pid: proc.pid, ...ready } satisfies CockpitReady);
}

const STANDBY = { type: 'cockpit-standby' } as const;
const GO = { type: 'cockpit-go' } as const;

/** Child side of a spare: resolves on the parent's go; exits if the parent goes first. */
export function standBy(proc: NodeJS.Process = process): Promise<void> {
  if (!proc.send) return Promise.reject(new Error('"standby" is for the restart loop only (it needs an IPC channel)'));
  return new Promise((resolve) => {
    const gone = () => proc.exit(0);
    const listen = (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type !== GO.type) return;
      proc.off('message', listen);
      proc.off('disconnect', gone);
      resolve();
    };
    proc.on('message', listen);
    proc.once('disconnect', gone);
    proc.send?.(STANDBY);
  });
}

/**
 * The serve entry beside this module: serve.ts from the sources, serve.js from a build (the
 * compiled dist/main, or the bundle of main/service-build.ts, which is that file itself).
 */
export const SERVE_ENTRY = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './serve.ts' : './serve.js', import.meta.url));

export interface ForkOptions {
  /** The arguments of `npm run serve` (flags such as --sim, --port, --data-dir). */
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /**
   * Node options of the child. By default the parent's, which under tsx carry its TypeScript
   * loader; a test run from elsewhere passes ['--import', 'tsx'].
   */
  execArgv?: string[];
  /** The child's output; inherited by default so its log lines reach the terminal or journal. */
  stdio?: 'inherit' | 'pipe' | 'ignore';
}

/** Starts `serve.ts` in a child process, for createSupervisor(). */
export function forkServe(options: ForkOptions): StartChild<CockpitReady> {
  return (events, mode) => {
    const stdio = options.stdio ?? 'inherit';
    const args = mode === 'spare' ? ['standby', ...options.args] : [...options.args];
    const child = fork(SERVE_ENTRY, args, {
      env: options.env ?? process.env,
      execArgv: options.execArgv ?? process.execArgv,
      stdio: [stdio === 'inherit' ? 'ignore' : stdio, stdio, stdio, 'ipc'],
      // Its own process group: Ctrl+C in the terminal reaches the parent only, which stops the
      // child itself, so a stop is never mistaken for a crash. If the parent dies, the closed
      // IPC channel stops the child (main/signals.ts).
      detached: true,
    });
    child.on('message', (message) => {
      if (isCockpitReady(message)) events.ready(message);
      else if ((message as { type?: unknown } | null)?.type === STANDBY.type) events.standingBy();
    });
    // A spawn that failed has no pid and may never emit 'exit'.
    child.once('error', () => child.pid === undefined && events.exit(1, null));
    child.once('exit', (code, signal) => events.exit(code, signal));
    return {
      pid: child.pid,
      go: () => void (child.connected && child.send(GO)),
      stop: () => void child.kill('SIGTERM'),
      kill: () => void child.kill('SIGKILL'),
    };
  };
}
