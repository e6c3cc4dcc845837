/**
 * The processes a benchmark measures, each on its own so the figures separate cleanly: the
 * simulated daemon, the cockpit in front of it, and a bare Koa server for comparison. All bind
 * 127.0.0.1 on free ports and are stopped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServiceBundle, SERVICE_BUNDLE } from '../main/service-build.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface Proc {
  child: ChildProcess;
  pid: number;
  /** Values parsed from the lines the process printed (e.g. its URL). */
  found: Record<string, string>;
  /** Throws if the process has ended (with the end of its stderr), so no figure is read off a dead process. */
  assertAlive(): void;
  stop(): Promise<void>;
}

/**
 * Spawns a TypeScript entry and waits until every pattern has matched a line of its stdout.
 * `prefix` runs it under another command, e.g. `taskset -c 0` (children inherit the affinity).
 */
export function startProc(
  args: string[],
  env: Record<string, string>,
  patterns: Record<string, RegExp>,
  prefix: readonly string[] = [],
): Promise<Proc> {
  // Compiled JavaScript runs under plain node, TypeScript under tsx.
  const runner = args[0]?.endsWith('.js') ? process.execPath : TSX;
  const [command, ...rest] = [...prefix, runner, ...args] as [string, ...string[]];
  const child = spawn(command, rest, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const found: Record<string, string> = {};
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${stderr}`)), 60_000);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${stderr}`)));
    child.stdout?.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        for (const [name, pattern] of Object.entries(patterns)) {
          const match = pattern.exec(line);
          if (match?.[1]) found[name] = match[1];
        }
      }
      if (Object.keys(patterns).every((k) => found[k])) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        const assertAlive = (): void => {
          if (child.exitCode !== null || child.signalCode !== null) {
            throw new Error(`${args[0]} ended (${child.exitCode ?? child.signalCode}):\n${stderr}`);
          }
        };
        resolve({ child, pid: childPid(child), found, assertAlive, stop: () => stopChild(child) });
      }
    });
  });
}

function childPid(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    if (ended()) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    // The 'exit' event was seen not to arrive for these tsx children although exitCode was set:
    // the code is polled as well, so a stop never waits forever.
    const poll = setInterval(() => ended() && done(), 100);
    const done = () => {
      clearTimeout(kill);
      clearInterval(poll);
      resolve();
    };
    child.once('exit', done);
    child.kill('SIGTERM');
  });
}

export const BENCH_TOKEN = 'bench-owner-token-0123456789abcdef';

export interface Stack {
  sim: Proc;
  cockpit: Proc;
  simUrl: string;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

let bundle: Promise<string> | undefined;

/**
 * The cockpit the way a robot runs it: the service bundle under plain node (main/service-build.ts,
 * what the systemd unit starts), built once per run. Under tsx the same server at rest held
 * 261 MiB against the bundle's 122 MiB (one run, no viewer): the loader's cost, not the cockpit's.
 * BENCH_COCKPIT=tsx measures the sources under tsx instead.
 */
function cockpitEntry(): Promise<string> {
  if (process.env['BENCH_COCKPIT'] === 'tsx') return Promise.resolve('main/serve.ts');
  bundle ??= buildServiceBundle(ROOT).then(() => SERVICE_BUNDLE);
  return bundle;
}

/**
 * The simulator and the cockpit as separate processes, so the cockpit's CPU is its own.
 * `cockpitPrefix` wraps the cockpit only, e.g. `['taskset', '-c', '0']` for a one-core run.
 */
export async function startStack(
  extraEnv: Record<string, string> = {},
  cockpitPrefix: readonly string[] = [],
): Promise<Stack> {
  const sim = await startProc(
    ['server/sim/cli.ts', '--port', '0'],
    {},
    {
      url: /sim: robot daemon on (\S+)/,
      signalling: /sim: camera signalling on (\S+)/,
    },
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'cockpit-bench-'));
  const cockpit = await startProc(
    [
      await cockpitEntry(),
      '--daemon',
      sim.found['url'] as string,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ],
    {
      ROBOT_TOKEN: BENCH_TOKEN,
      ROBOT_HTTPS_PORT: '0',
      ROBOT_CAMERA: `daemon:${sim.found['signalling']}`,
      ROBOT_THINKER_INTERVAL: '3600',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_LOG_LEVEL: 'error',
      ...extraEnv,
    },
    { url: /cockpit: desktop server on (\S+)/ },
    cockpitPrefix,
  );
  return {
    sim,
    cockpit,
    simUrl: sim.found['url'] as string,
    url: cockpit.found['url'] as string,
    dataDir,
    async stop() {
      await cockpit.stop();
      await sim.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
