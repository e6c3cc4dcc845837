/**
 * The desktop app's server process across a real process boundary, as Electron runs it but
 * forked with Node's IPC (the Electron binary is not needed): the tray's calls and the window
 * session go through the link, the snapshot arrives, and after a SIGKILL the loop's loaded spare
 * takes over on the same port with the window's session still valid.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLog } from '../../server/index.ts';
import type { Supervisor, SupervisorState } from '../supervisor.ts';
import type { ServerReady } from './cockpit-link.ts';
import { createCockpitRemote, NOT_RUNNING } from './cockpit-remote.ts';
import { superviseServer, type LinkedProcess } from './server-supervision.ts';
import type { CockpitSnapshot } from './tray-model.ts';

const ENTRY = fileURLToPath(new URL('./server-entry.ts', import.meta.url));
let dataDir: string;
let supervisor: Supervisor<ServerReady>;
const remote = createCockpitRemote();

function forkEntry(args: string[]): LinkedProcess {
  const child = fork(ENTRY, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: { ...process.env, ROBOT_HTTPS_PORT: '0', ROBOT_CAMERA: 'off', ROBOT_TRACK_AUTOSTART: '0', ROBOT_LOG_LEVEL: 'error', ROBOT_RATE_LIMIT: '1000' },
  });
  return {
    pid: child.pid,
    send: (message) => void (child.connected && child.send(message)),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.once('exit', listener),
    terminate: () => void child.kill('SIGTERM'),
    kill: () => void child.kill('SIGKILL'),
  };
}

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'desktop-server-'));
  supervisor = superviseServer({
    spawn: forkEntry,
    args: ['--sim', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
    remote,
    log: createLog({ sink: () => {} }),
  });
});

afterAll(async () => {
  await supervisor.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function nextState<K extends SupervisorState<ServerReady>['kind']>(kind: K) {
  return new Promise<Extract<SupervisorState<ServerReady>, { kind: K }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${kind}" state in time`)), 60_000);
    const off = supervisor.onState((state) => {
      if (state.kind !== kind) return;
      clearTimeout(timer);
      off();
      resolve(state as Extract<SupervisorState<ServerReady>, { kind: K }>);
    });
  });
}

/** The first pushed snapshot that satisfies the predicate (pushed once a second; bounded). */
function snapshotWhere(predicate: (snapshot: CockpitSnapshot) => boolean) {
  return new Promise<CockpitSnapshot>((resolve, reject) => {
    const now = remote.lastSnapshot();
    if (now && predicate(now)) return resolve(now);
    const timer = setTimeout(() => reject(new Error('no matching snapshot in time')), 30_000);
    remote.onSnapshot((snapshot) => {
      if (!predicate(snapshot)) return;
      clearTimeout(timer);
      resolve(snapshot);
    });
  });
}

const withCookie = (id: string) => ({ headers: { cookie: `cockpit_session=${id}` } });

it('serves the tray and the window over the link, and comes back on the same port after a SIGKILL', async () => {
  const first = await supervisor.start();
  const origin = `http://127.0.0.1:${first.port}`;
  expect(first).toMatchObject({ host: '127.0.0.1', dataDir, simulated: true });
  await snapshotWhere((s) => s.health.daemon.presence === 'connected');

  expect(await remote.control.stop('local-window')).toMatchObject({ daemon: { ok: true } });
  await snapshotWhere((s) => s.stop?.state === 'running');
  await remote.control.resume('local-window');
  await snapshotWhere((s) => s.stop?.state !== 'running');

  const session = await remote.createWindowSession(3600);
  expect(Object.keys(session).sort()).toEqual(['expiresAt', 'id']);
  expect((await fetch(`${origin}/api/state`, withCookie(session.id))).status).toBe(200);

  await expect.poll(() => supervisor.spareStanding(), { timeout: 60_000, interval: 100 }).toBe(true);
  // The spare is loaded but not linked: the tray still talks to the running server.
  expect(await remote.control.resume('local-window')).toBeDefined();
  const running = supervisor.state();
  if (running.kind !== 'running') throw new Error(`expected running, got ${running.kind}`);
  const restarting = nextState('restarting');
  const back = nextState('running');
  process.kill(running.pid as number, 'SIGKILL');
  const scheduled = await restarting;
  expect(scheduled.delayMs).toBeLessThan(2000);
  await expect(remote.control.wake('local-window')).rejects.toThrow(NOT_RUNNING);

  const again = await back;
  expect(again.info.port).toBe(first.port);
  expect((await fetch(`${origin}/api/health`)).status).toBe(200);
  // The window's session was stored by the first process and is honoured by the second.
  expect((await fetch(`${origin}/api/state`, withCookie(session.id))).status).toBe(200);
  expect(await remote.control.stop('local-window')).toMatchObject({ daemon: { ok: true } });
  await remote.control.resume('local-window');
  await remote.destroySession(session.id);
  expect((await fetch(`${origin}/api/state`, withCookie(session.id))).status).toBe(401);
}, 120_000);
