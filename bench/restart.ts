/**
 * `npx tsx bench/restart.ts [rounds] [systemd|loop]`: the wall-clock cost of a crash (both
 * phases unless one is named).
 *
 * Under the console's restart loop, `main/serve.ts` runs under createSupervisor as `npm start`
 * runs it headless, once with the loaded spare (what `npm start` uses) and once without
 * (ROBOT_SPARE=0: a fresh process). Each round waits past the loop's stable time (so the restart
 * delay is its first step) and for the spare to stand by, kills the server with SIGKILL and
 * times how long until /api/health answers again, split into the delay the loop scheduled and
 * the start of the process that takes over.
 *
 * "systemd-style" plays systemd: it starts the process exactly as the unit's ExecStart does
 * (main/install-service.ts serveCommand(): the bundle of main/service-build.ts under plain
 * node), kills it with SIGKILL, waits the unit's RestartSec and starts it again. For comparison
 * the same is timed with the command the unit ran before, `main/serve.ts` under tsx.
 *
 * The tests (main/supervisor-restart.test.ts, main/systemd-unit.test.ts) assert the scheduled
 * delays and the unit's command line; this reports time.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLog } from '../server/index.ts';
import { forkServe, SERVE_ENTRY, type CockpitReady } from '../main/cockpit-child.ts';
import { serveCommand } from '../main/install-service.ts';
import { buildServiceBundle, checkoutRoot } from '../main/service-build.ts';
import { createSupervisor, DEFAULT_POLICY, type SupervisorState } from '../main/supervisor.ts';
import { RESTART_DELAY_MS } from '../main/systemd-unit.ts';

const rounds = Number(process.argv[2] ?? 3);
const phase = process.argv[3];
const say = (line: string) => process.stdout.write(`${line}\n`);

async function healthAt(url: string, deadline: number): Promise<number> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return Date.now();
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the server did not come back within the bound');
}

async function measure(spare: boolean): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-restart-'));
  const port = String(18_700 + Math.floor(Math.random() * 200));
  const supervisor = createSupervisor<CockpitReady>({
    log: createLog({ sink: () => {} }),
    spare,
    start: forkServe({
      args: ['--sim', '--host', '127.0.0.1', '--port', port, '--data-dir', dataDir],
      env: SERVER_ENV,
      execArgv: ['--import', 'tsx'],
      stdio: 'ignore',
    }),
  });
  const states: { at: number; state: SupervisorState<CockpitReady> }[] = [];
  supervisor.onState((state) => states.push({ at: Date.now(), state }));
  const url = `http://127.0.0.1:${port}`;
  const rows: string[] = [];
  try {
    await supervisor.start();
    for (let round = 1; round <= rounds; round += 1) {
      await new Promise((r) => setTimeout(r, DEFAULT_POLICY.stableMs + 500));
      while (spare && !supervisor.spareStanding()) await new Promise((r) => setTimeout(r, 100));
      const running = supervisor.state();
      if (running.kind !== 'running') throw new Error(`round ${round}: server not running (${running.kind})`);
      states.length = 0;
      const killedAt = Date.now();
      process.kill(running.pid as number, 'SIGKILL');
      const back = await healthAt(url, killedAt + 120_000);
      const scheduled = states.find((s) => s.state.kind === 'restarting');
      const spawned = states.find((s) => s.state.kind === 'starting');
      const delay = scheduled?.state.kind === 'restarting' ? scheduled.state.delayMs : NaN;
      const startMs = spawned ? back - spawned.at : NaN;
      const how = spare ? 'loop: spare takes over' : 'loop: fresh process (ROBOT_SPARE=0)';
      rows.push(`| ${how} | ${round} | ${delay} | ${startMs} | – | ${back - killedAt} |`);
      say(`bench restart (${how}): round ${round}: back after ${back - killedAt} ms (delay ${delay} ms, start ${startMs} ms)`);
    }
  } finally {
    await supervisor.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU time a process has used so far (user + system, /proc on Linux): what a start costs
 * regardless of how loaded the machine is, unlike its wall-clock time.
 */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name in parentheses: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Math.round(((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
  } catch {
    return undefined;
  }
}
const SERVER_ENV = { ...process.env, NODE_OPTIONS: '', ROBOT_HTTPS_PORT: '0', ROBOT_CAMERA: 'off', ROBOT_MDNS: '0', ROBOT_LOG_LEVEL: 'error' };

/** systemd's part: start, and after a SIGKILL wait RestartSec and start the same command again. */
async function measureSystemdStyle(how: string, command: readonly string[], url: string): Promise<string[]> {
  const start = (): ChildProcess => spawn(command[0] as string, command.slice(1), { stdio: 'ignore', env: SERVER_ENV });
  let proc = start();
  const rows: string[] = [];
  try {
    await healthAt(url, Date.now() + 120_000);
    for (let round = 1; round <= rounds; round += 1) {
      // Settled, as a server that has run a while.
      await sleep(3000);
      const exited = new Promise((r) => proc.once('exit', r));
      const killedAt = Date.now();
      proc.kill('SIGKILL');
      await exited;
      await sleep(RESTART_DELAY_MS);
      const startedAt = Date.now();
      proc = start();
      const back = await healthAt(url, killedAt + 120_000);
      const cpu = cpuMs(proc.pid);
      rows.push(`| ${how} | ${round} | ${RESTART_DELAY_MS} | ${back - startedAt} | ${cpu ?? '–'} | ${back - killedAt} |`);
      say(`bench restart (${how}): round ${round}: back after ${back - killedAt} ms (start ${back - startedAt} ms, ${cpu ?? '?'} ms CPU)`);
    }
  } finally {
    proc.kill('SIGKILL');
  }
  return rows;
}

async function systemdStyle(): Promise<string[]> {
  const root = checkoutRoot();
  await buildServiceBundle(root);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-restart-unit-'));
  const port = String(18_900 + Math.floor(Math.random() * 90));
  const args = ['--sim', '--host', '127.0.0.1', '--port', port, '--data-dir', dataDir];
  const url = `http://127.0.0.1:${port}`;
  try {
    return [
      ...(await measureSystemdStyle('systemd-style: the unit (bundle, plain node)', serveCommand(args, root), url)),
      ...(await measureSystemdStyle('systemd-style: tsx main/serve.ts (before)', [process.execPath, '--import', 'tsx', SERVE_ENTRY, ...args], url)),
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows = [
    ...(phase === 'loop' ? [] : await systemdStyle()),
    ...(phase === 'systemd' ? [] : [...(await measure(true)), ...(await measure(false))]),
  ];
  say('');
  say(`Restart after SIGKILL (${cpus().length} cores, load average ${loadavg()[0]?.toFixed(1)} at the end, Node ${process.version})`);
  say('');
  say('| Restart | Round | Scheduled delay (ms) | Start → health (ms) | CPU of that start (ms) | Kill → health (ms) |');
  say('|---|---|---|---|---|---|');
  rows.forEach((row) => say(row));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench restart failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
