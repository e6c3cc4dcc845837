/**
 * The recorder inside a real cockpit (in-process simulator, port 0), on a clock the test moves:
 * state from the one cache at every sample of the feed, camera frames from the frame hub, control
 * requests with credential kind and outcome, the routes, and no secret anywhere on disk.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFakeClock } from '../auth/testing/fake-clock.ts';
import { loadConfig } from '../config.ts';
import type { KeptRecording, RecorderStatus, RecordingsView, ReplaySummary } from '../contract/recordings.ts';
import { startCockpit, type Cockpit } from '../index.ts';
import { silentLog } from '../log.ts';
import { openSocket, remoteRequest, TEST_TOKEN, until } from '../testing/cockpit-harness.ts';
import { readBack } from './testing/recorder-rig.ts';

const PROVIDER_KEY = 'sk-test-provider-key-4f1c9a0e7b2d';
/** A wrong owner token a caller presents: refused at the gate, recorded as `invalid`, never written. */
const WRONG_TOKEN = 'wrong-token-7d2e9b41c0a5f386';
const clock = createFakeClock();
let cockpit: Cockpit;
let dataDir: string;
const authed = (path: string, init: RequestInit = {}) =>
  fetch(`${cockpit.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'recorder-cockpit-'));
  const config = loadConfig({
    env: {
      ROBOT_RATE_LIMIT: '1000',
      ROBOT_HTTPS_PORT: '0',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_THINKER_INTERVAL: '3600',
      ROBOT_MODEL_PROVIDER: 'openai',
      ROBOT_MODEL_BASE_URL: 'http://127.0.0.1:9/v1',
      ROBOT_MODEL: 'm',
      ROBOT_MODEL_KEY: PROVIDER_KEY,
    },
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
  });
  cockpit = await startCockpit({ config, log: silentLog, ownerToken: TEST_TOKEN, clock });
});
afterAll(async () => {
  await cockpit.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('records state at the feed rate, camera frames, controls, then keeps and replays them over the routes', async () => {
  // Samples seen by a second listener on the same feed while the clock reads `mark`.
  clock.advance(60_000);
  const mark = clock.now();
  let seen = 0;
  const off = cockpit.robot.feed.onSample(() => {
    if (clock.now() === mark) seen += 1;
  });
  expect(await until(() => seen >= 20, 10_000)).toBe(true);
  clock.advance(1);
  off();

  // Camera frames: the recorder takes one per 200 ms of its clock.
  const hadFrames = await until(() => {
    clock.advance(250);
    return recorded('/camera/jpeg') >= 3;
  }, 20_000);
  expect(hadFrames).toBe(true);

  expect((await authed('/api/control/look', { method: 'POST', body: JSON.stringify({ yaw: 10 }) })).status).toBe(200);
  expect(
    (await authed('/api/control/express', { method: 'POST', body: JSON.stringify({ name: 'no-such-move' }) })).status,
  ).toBe(404);
  const { ws } = await openSocket(`${cockpit.url.replace('http', 'ws')}/ws`, { authorization: `Bearer ${TEST_TOKEN}` });
  const controlsBefore = recorded('/control');
  ws.send(JSON.stringify({ type: 'joystick', yaw: 5 }));
  expect(await until(() => recorded('/control') > controlsBefore, 5000)).toBe(true);
  ws.close();
  expect((await authed('/api/control/stop', { method: 'POST' })).status).toBe(200);
  expect(cockpit.recorder.status().pendingStops).toEqual([clock.now()]);
  // A secret that leaked into a value is replaced before the disk.
  cockpit.recorder.recordAppEvent({ app: 'leaky', phase: 'start', detail: `${TEST_TOKEN} ${PROVIDER_KEY}` });
  expect((await authed('/api/console/resume', { method: 'POST' })).status).toBe(200);

  const saved = await authed('/api/console/recordings', {
    method: 'POST',
    body: JSON.stringify({ minutes: 2, name: 'bench check' }),
  });
  expect(saved.status).toBe(201);
  const kept = (await saved.json()) as KeptRecording;
  const back = await readBack(join(dataDir, 'recordings', 'kept', `${kept.id}.mcap`));
  expect(back.messages.filter((m) => m.topic === '/robot/state' && m.ms === mark)).toHaveLength(seen);
  expect(back.counts['/robot/head_pose']).toBe(back.counts['/robot/state']);
  expect(back.counts['/camera/jpeg']).toBeGreaterThanOrEqual(3);
  const controls = back.messages.filter((m) => m.topic === '/control').map((m) => m.value);
  expect(controls).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ action: 'look', credential: 'token', outcome: 'ok', status: 200, input: { yaw: 10 } }),
      expect.objectContaining({
        action: 'express',
        credential: 'token',
        outcome: 'refused',
        code: 'MOVE_UNKNOWN',
        status: 404,
      }),
      expect.objectContaining({ action: 'joystick', credential: 'token', outcome: 'ok' }),
      expect.objectContaining({ action: 'stop', credential: 'token', outcome: 'ok' }),
      expect.objectContaining({ action: 'resume', credential: 'token', outcome: 'ok' }),
    ]),
  );
  expect(back.messages.some((m) => m.topic === '/events' && (m.value as { action: string }).action === 'stop')).toBe(
    true,
  );
  expect(back.counts['/health']).toBeGreaterThanOrEqual(1);

  const replay = (await (await authed(`/api/console/recordings/${kept.id}/replay`)).json()) as ReplaySummary;
  expect(replay.markers.map((m) => m.kind)).toEqual(expect.arrayContaining(['stop', 'input']));
  expect(replay.poses.length).toBeGreaterThan(0);
  const frame = await authed(`/api/console/recordings/${kept.id}/frame?t=${replay.duration}`);
  expect(frame.headers.get('content-type')).toBe('image/jpeg');
  expect((await frame.arrayBuffer()).byteLength).toBeGreaterThan(100);

  const file = await authed(`/api/console/recordings/${kept.id}/file`);
  expect(file.headers.get('content-disposition')).toContain('bench check.mcap');
  expect(Buffer.from(await file.arrayBuffer()).subarray(0, 8)).toEqual(
    Buffer.from([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]),
  );

  const renamed = await authed(`/api/console/recordings/${kept.id}`, {
    method: 'PUT',
    body: JSON.stringify({ name: 'the look' }),
  });
  expect(((await renamed.json()) as KeptRecording).name).toBe('the look');
  const camera = await authed('/api/console/recorder', { method: 'PUT', body: JSON.stringify({ camera: false }) });
  expect(((await camera.json()) as RecorderStatus).camera).toBe(false);
  const list = (await (await authed('/api/console/recordings')).json()) as RecordingsView;
  expect(list.recordings.map((r) => r.name)).toEqual(['the look']);
  expect(list.recorder).toMatchObject({
    recording: true,
    camera: false,
    maxMinutes: 10,
    maxBytes: 500 * 1024 * 1024,
    cameraFps: 5,
  });
});

it('answers bad input with a 4xx and a code, never a 500', async () => {
  const cases: [string, RequestInit, number, string][] = [
    ['/api/console/recordings', { method: 'POST', body: '{"minutes": 0}' }, 400, 'BAD_REQUEST'],
    ['/api/console/recordings', { method: 'POST', body: '{"minutes": 11}' }, 400, 'BAD_REQUEST'],
    ['/api/console/recordings', { method: 'POST', body: '{"minutes": "5"}' }, 400, 'BAD_REQUEST'],
    ['/api/console/recordings', { method: 'POST', body: '{"minutes": 1, "name": ""}' }, 400, 'BAD_REQUEST'],
    ['/api/console/recordings', { method: 'POST', body: 'nope' }, 400, 'BAD_JSON'],
    ['/api/console/recordings/rec-20260101-000000-abcdef', { method: 'PUT', body: '{"name": "x"}' }, 404, 'NOT_FOUND'],
    ['/api/console/recordings/..%2Fkept', { method: 'DELETE' }, 404, 'NOT_FOUND'],
    ['/api/console/recordings/nope/file', {}, 404, 'NOT_FOUND'],
    ['/api/console/recordings/nope/frame?t=-1', {}, 400, 'BAD_REQUEST'],
    ['/api/console/recorder', { method: 'PUT', body: '{"camera": "yes"}' }, 400, 'BAD_REQUEST'],
  ];
  for (const [path, init, status, code] of cases) {
    const res = await authed(path, init);
    expect([path, res.status]).toEqual([path, status]);
    expect(((await res.json()) as { code: string }).code).toBe(code);
  }
  // Recordings hold the robot's camera and what was said to it: a caller from elsewhere needs a key.
  expect((await remoteRequest(`${cockpit.url}/api/console/recordings`)).status).toBe(401);
});

it('a kept recording whose file was deleted by hand answers 404 with a code, not a 500', async () => {
  const saved = await authed('/api/console/recordings', { method: 'POST', body: JSON.stringify({ minutes: 1 }) });
  expect(saved.status).toBe(201);
  const kept = (await saved.json()) as KeptRecording;
  rmSync(join(dataDir, 'recordings', 'kept', `${kept.id}.mcap`));
  for (const path of ['replay', 'frame?t=0', 'file']) {
    const res = await authed(`/api/console/recordings/${kept.id}/${path}`);
    expect([path, res.status]).toEqual([path, 404]);
    expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
  }
  // Its entry can still be deleted.
  expect((await authed(`/api/console/recordings/${kept.id}`, { method: 'DELETE' })).status).toBe(200);
});

it('records control requests the gate refuses, with the kind of credential and never the credential', async () => {
  const look = `${cockpit.url}/api/control/look`;
  const body = JSON.stringify({ yaw: 3 });
  const json = { 'content-type': 'application/json' };
  expect((await remoteRequest(look, { method: 'POST', headers: json, body })).status).toBe(401);
  const wrong = { ...json, authorization: `Bearer ${WRONG_TOKEN}` };
  expect((await remoteRequest(look, { method: 'POST', headers: wrong, body })).status).toBe(401);
  const foreign = await authed('/api/control/look', {
    method: 'POST',
    body,
    headers: { origin: 'http://elsewhere.example' },
  });
  expect(foreign.status).toBe(403);
  // A keyed read refused at the gate is no control request: not on the channel.
  expect((await remoteRequest(`${cockpit.url}/api/console/recordings`)).status).toBe(401);
  // A loopback socket without a key may read but not drive: its joystick frame is refused.
  const { ws } = await openSocket(`${cockpit.url.replace('http', 'ws')}/ws`, {});
  const controlsBefore = recorded('/control');
  ws.send(JSON.stringify({ type: 'joystick', yaw: 5 }));
  expect(await until(() => recorded('/control') > controlsBefore, 5000)).toBe(true);
  ws.close();

  const kept = await cockpit.recorder.keepLast(1, 'gate refusals');
  const back = await readBack(join(dataDir, 'recordings', 'kept', `${kept.id}.mcap`));
  const refusals = back.messages
    .filter((m) => m.topic === '/control' && (m.value as { stage?: string }).stage === 'gate')
    .map((m) => m.value);
  expect(refusals).toEqual([
    {
      action: 'look',
      path: '/api/control/look',
      credential: 'anonymous',
      outcome: 'refused',
      code: 'AUTH_REQUIRED',
      status: 401,
      stage: 'gate',
    },
    {
      action: 'look',
      path: '/api/control/look',
      credential: 'invalid',
      outcome: 'refused',
      code: 'AUTH_REQUIRED',
      status: 401,
      stage: 'gate',
    },
    {
      action: 'look',
      path: '/api/control/look',
      credential: 'token',
      outcome: 'refused',
      code: 'ORIGIN_REFUSED',
      status: 403,
      stage: 'gate',
    },
    {
      action: 'joystick',
      path: '/ws',
      credential: 'loopback',
      outcome: 'refused',
      code: 'AUTH_REQUIRED',
      stage: 'gate',
    },
  ]);
});

it('never writes the owner token or a provider key: every byte of every recording is scanned', async () => {
  await cockpit.recorder.keepLast(10);
  await cockpit.stop();
  const files = walk(join(dataDir, 'recordings')).filter((f) => f.endsWith('.mcap'));
  expect(files.length).toBeGreaterThan(1);
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const secret of [TEST_TOKEN, PROVIDER_KEY, WRONG_TOKEN]) {
      expect([file, bytes.includes(Buffer.from(secret))]).toEqual([file, false]);
      expect([file, bytes.includes(Buffer.from(Buffer.from(secret).toString('base64').slice(0, 20)))]).toEqual([
        file,
        false,
      ]);
    }
  }
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const recorded = (topic: string) => cockpit.recorder.status().channels[topic] ?? 0;
