/**
 * The desktop app's server process across a real process boundary, as Electron runs it, without
 * the Electron binary: server-entry.ts in a plain Node fork whose `process.parentPort` is a
 * stand-in over the fork's IPC channel (testing/fake-parent-port.ts, structured-clone
 * serialization), enrolled on the platform emulator with a firmware update published. What the
 * tray and the alerts use goes through the link: the robot's state in the pushed snapshot, the
 * stop latch, the firmware line, platform notices, "save the last minutes" and the window
 * session. After a SIGKILL the loop's loaded spare takes over on the same port, and all of it
 * works again, with what the first process stored (the session, the kept recording) still there.
 */
import { createHash } from 'node:crypto';
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatformEmulator, type PlatformEmulator } from '../../platform-client/test/platform-emulator.ts';
import { createLog } from '../../server/index.ts';
import type { Supervisor, SupervisorState } from '../supervisor.ts';
import type { ServerReady } from './cockpit-link.ts';
import { createCockpitRemote, NOT_RUNNING } from './cockpit-remote.ts';
import { superviseServer, type LinkedProcess } from './server-supervision.ts';
import type { CockpitSnapshot } from './tray-model.ts';

const ENTRY = fileURLToPath(new URL('./testing/fake-parent-port.ts', import.meta.url));
const UPDATE = '90.2.0';
let dataDir: string;
let emu: PlatformEmulator;
let owner: { userId: string; session: string };
let env: NodeJS.ProcessEnv;
let supervisor: Supervisor<ServerReady>;
const remote = createCockpitRemote();
const notices: string[] = [];
remote.onNotice((notification) => notices.push(notification.title));

function forkEntry(args: string[]): LinkedProcess {
  const child = fork(ENTRY, args, {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env,
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

/** The owner points the stable channel at a one-file bundle the emulator hosts. */
async function publishUpdate(version: string): Promise<void> {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const content = `add-on ${version}`;
  const file = emu.hostFile(`/fw/${version}/addon.txt`, content);
  const manifest = JSON.stringify({ version, files: [{ name: 'addon.txt', sha256: sha(content), url: file }] });
  const url = emu.hostFile(`/fw/${version}/manifest.json`, manifest, 'application/json');
  const res = await fetch(`${emu.url}/api/firmware/manifest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'stable', version, url, sha256: sha(manifest) }),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'desktop-server-'));
  emu = await startPlatformEmulator();
  owner = emu.addUser('owner');
  await publishUpdate(UPDATE);
  const device = emu.enrolDevice(owner.session, 'desktop-restart');
  env = {
    ...process.env,
    ROBOT_HTTPS_PORT: '0',
    ROBOT_CAMERA: 'off',
    ROBOT_MDNS: '0',
    ROBOT_TRACK_AUTOSTART: '0',
    ROBOT_LOG_LEVEL: 'error',
    ROBOT_RATE_LIMIT: '1000',
    ROBOT_PLATFORM_URL: emu.url,
    ROBOT_DEVICE_ID: device.deviceId,
    ROBOT_DEVICE_TOKEN: device.token,
  };
  supervisor = superviseServer({
    spawn: forkEntry,
    args: ['--sim', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
    remote,
    log: createLog({ sink: () => {} }),
    spare: true,
  });
});

afterAll(async () => {
  await supervisor.stop();
  await emu.close();
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

/** The first snapshot pushed from now on (once a second) that satisfies the predicate; bounded. */
function pushedSnapshot(predicate: (snapshot: CockpitSnapshot) => boolean) {
  return new Promise<CockpitSnapshot>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error('no matching snapshot in time'));
    }, 30_000);
    remote.onSnapshot((snapshot) => {
      if (done || !predicate(snapshot)) return;
      done = true;
      clearTimeout(timer);
      resolve(snapshot);
    });
  });
}

/** What the tray shows once the process is fully up: the robot, the platform link and the staged update. */
const settled = (s: CockpitSnapshot) =>
  s.health.daemon.presence === 'connected' && s.platform?.online === true && s.platform.firmware?.state === 'staged';

/** A platform notice pushed to the owner reaches the shell (the device pulls its relay every few seconds). */
async function noticeArrives(title: string): Promise<void> {
  emu.pushToUser(owner.userId, { title, tag: title });
  await expect.poll(() => notices.includes(title), { timeout: 30_000, interval: 100 }).toBe(true);
}

const withCookie = (id: string) => ({ headers: { cookie: `cockpit_session=${id}` } });

it('serves the tray over the port, and after a SIGKILL comes back on the same port with all of it', async () => {
  const first = await supervisor.start();
  const origin = `http://127.0.0.1:${first.port}`;
  expect(first).toMatchObject({ host: '127.0.0.1', dataDir, simulated: true });
  const up = await pushedSnapshot(settled);
  expect(up.platform?.firmware).toMatchObject({ state: 'staged', staged: UPDATE, installAllowed: false });
  await noticeArrives('before the crash');

  expect(await remote.control.stop('local-window')).toMatchObject({ daemon: { ok: true } });
  await pushedSnapshot((s) => s.stop?.state === 'running');
  await remote.control.resume('local-window');
  await pushedSnapshot((s) => s.stop?.state !== 'running');
  const kept = await remote.recordings.saveLast(1);
  expect(kept.name).toEqual(expect.any(String));

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
  await expect(remote.recordings.saveLast(1)).rejects.toThrow(NOT_RUNNING);

  const again = await back;
  expect(again.info.port).toBe(first.port);
  expect(again.pid).not.toBe(running.pid);
  // The new process pushes its own snapshots: robot connected, platform online, the update staged.
  await pushedSnapshot(settled);
  await noticeArrives('after the crash');
  expect((await fetch(`${origin}/api/health`)).status).toBe(200);
  // The window's session was stored by the first process and is honoured by the second.
  expect((await fetch(`${origin}/api/state`, withCookie(session.id))).status).toBe(200);
  expect(await remote.control.stop('local-window')).toMatchObject({ daemon: { ok: true } });
  await pushedSnapshot((s) => s.stop?.state === 'running');
  await remote.control.resume('local-window');
  const keptAgain = await remote.recordings.saveLast(1);
  const token = readFileSync(join(dataDir, 'owner-token'), 'utf8').trim();
  const listed = await fetch(`${origin}/api/console/recordings`, { headers: { authorization: `Bearer ${token}` } });
  const names = ((await listed.json()) as { recordings: { name: string }[] }).recordings.map((r) => r.name);
  expect(names).toEqual(expect.arrayContaining([kept.name, keptAgain.name]));
  await remote.destroySession(session.id);
  expect((await fetch(`${origin}/api/state`, withCookie(session.id))).status).toBe(401);
}, 180_000);
