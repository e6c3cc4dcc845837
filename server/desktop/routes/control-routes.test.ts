import Router from '@koa/router';
import Koa from 'koa';
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RobotState } from '../../contract/state.ts';
import { HttpDaemonClient, type DaemonClient } from '../../daemon/daemon-client.ts';
import { errorHandler } from '../../http/error-handler.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { silentLog } from '../../log.ts';
import { createControl, type Control } from '../../motion/control.ts';
import type { Receipt } from '../../motion/receipts.ts';
import { recordingHolds, until } from '../../motion/testing/rig.ts';
import { startSimDaemon, type SimDaemon } from '../../sim/index.ts';
import { SPEAKING_TAIL_MS } from '../../speech/speaker.ts';
import { recordedMove } from '../../sim/library.ts';
import { EMOTIONS_DATASET } from '../../sim/library-names.ts';
import { createManualClock } from '../../testing/manual-clock.ts';
import { createRobotCore, type RobotCore } from '../robot-core.ts';
import { controlRoutes } from './control-routes.ts';

/** Records every daemon call, so a test can prove a refused request reached nothing. */
function spyDaemon(inner: DaemonClient): { daemon: DaemonClient; calls: string[] } {
  const calls: string[] = [];
  const daemon = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { daemon, calls };
}

/** A tiny desktop server: error handler, a test caller (the access gate is tested elsewhere), the routes. */
function buildApp(routes: RouteSpec[]): Koa {
  const koa = new Koa();
  koa.use(errorHandler(silentLog));
  koa.use(async (ctx, next) => {
    const kind = ctx.get('x-test-kind') || 'token';
    if (kind !== 'none')
      (ctx.state as { caller: unknown }).caller = {
        kind,
        local: false,
        failed: false,
        viaBearer: kind === 'token',
        viaCookie: false,
      };
    await next();
  });
  const router = new Router();
  for (const r of routes) router.post(r.path, r.handler as Koa.Middleware);
  koa.use(router.routes()).use(router.allowedMethods());
  return koa;
}

let sim: SimDaemon;
let robot: RobotCore;
let control: Control;
let server: Server;
let base: string;
let spy: { daemon: DaemonClient; calls: string[] };
const events: Receipt[] = [];
const holds = recordingHolds();
/** The control's timing rules' time (volume debounce, joystick stream, end of a clip): tests move it by hand. */
const controlClock = createManualClock();

beforeAll(async () => {
  sim = await startSimDaemon();
  spy = spyDaemon(new HttpDaemonClient({ baseUrl: sim.url }));
  robot = createRobotCore({ daemonUrl: sim.url, simulated: true, log: silentLog, daemon: spy.daemon });
  robot.start();
  control = createControl({
    robot,
    emit: (e) => events.push(e),
    holds,
    log: silentLog,
    reel: { pauseMs: 100 },
    clock: controlClock,
  });
  control.start();
  server = buildApp(controlRoutes({ control })).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await until(() => robot.state() !== undefined && robot.feed.snapshot().presence === 'connected');
});

afterAll(async () => {
  control.close();
  await new Promise((resolve) => server.close(resolve));
  await robot.stop();
  await sim.close();
});

beforeEach(async () => {
  if (control.latch.engaged()) control.resume('token');
  await control.arbiter.stopAll();
});

async function post(
  path: string,
  body?: unknown,
  kind = 'token',
): Promise<{ status: number; json: Record<string, unknown> }> {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-kind': kind } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const state = (): RobotState => robot.state() as RobotState;
const simRunning = async (): Promise<unknown[]> =>
  (await (await fetch(`${sim.url}/api/move/running`)).json()) as unknown[];
const lastEvent = (action: string): Receipt | undefined => events.filter((e) => e.action === action).at(-1);
/** Within half a degree: where toBeCloseTo(x, 0) draws the line. */
const near = (value: number, target: number): boolean => Math.abs(value - target) < 0.5;

describe('control routes: moves change the robot', () => {
  it('look yaw 30 turns the head to ≈30° after the duration, with a receipt', async () => {
    const res = await post('/api/control/look', { yaw: 30, pitch: -5, duration: 0.5 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ applied: { yaw: 30, pitch: -5, roll: 0, duration: 0.5 }, clamped: {} });
    // The move takes 0.5 s of the simulator's time; the head gets there however busy the machine is.
    await until(() => near(state().head.yaw, 30) && near(state().head.pitch, -5));
    expect(lastEvent('look')).toMatchObject({
      type: 'event',
      text: 'look yaw 30° pitch -5° in 0.5 s',
      credential: 'token',
    });
  });

  it('clamps look to the safe ranges and reports it (yaw 200 → 60)', async () => {
    const res = await post('/api/control/look', { yaw: 200, duration: 0.4 }, 'passkey');
    expect(res.json).toMatchObject({ applied: { yaw: 60 }, clamped: { yaw: { requested: 200, applied: 60 } } });
    await until(() => near(state().head.yaw, 60));
    expect(lastEvent('look')).toMatchObject({
      text: 'look yaw 60° in 0.4 s (yaw clamped from 200°)',
      credential: 'passkey',
    });
  });

  it('sets the antennas in degrees, [right, left]', async () => {
    expect((await post('/api/control/antennas', { right: -40, left: 25 })).status).toBe(200);
    await until(() => near(state().antennas.right, -40) && near(state().antennas.left, 25));
  });

  it('home returns to the neutral pose', async () => {
    await post('/api/control/look', { yaw: -20, roll: 10, duration: 0.3 });
    expect((await post('/api/control/home')).status).toBe(200);
    await until(
      () => Math.abs(state().head.yaw) < 1 && Math.abs(state().head.roll) < 1 && near(state().antennas.right, -10),
    );
  });

  it('express plays a recorded move, and an unknown one is a 404 that starts nothing', async () => {
    const ok = await post('/api/control/express', { name: 'welcoming1' });
    expect(ok.status).toBe(200);
    expect(await simRunning()).toEqual([{ uuid: ok.json.uuid }]);
    expect(holds.live()).toContain('emotion:welcoming1');
    await control.arbiter.stopAll();
    const missing = await post('/api/control/express', { name: 'moonwalk9' });
    expect(missing).toMatchObject({ status: 404, json: { code: 'MOVE_UNKNOWN' } });
    expect(await simRunning()).toEqual([]);
  });

  it("learns a move's length from a whole play, on the control's clock, and lists it with the library", async () => {
    const length = recordedMove(EMOTIONS_DATASET, 'yes1')?.duration ?? NaN;
    const listed = async () => (await robot.moves.get()).moves.find((m) => m.name === 'yes1')?.seconds;
    expect(await listed()).toBeNull();
    const played = await post('/api/control/express', { name: 'yes1' });
    expect(played.status).toBe(200);
    // The play takes its real time on the simulator; the length is read on the clock the test moves.
    controlClock.advance(length * 1000);
    await until(async () => (await simRunning()).length === 0, 30_000);
    await until(async () => (await listed()) !== null);
    expect(await listed()).toBe(Math.round(length * 10) / 10);
  });

  it('sets the motor mode; only the three modes are accepted', async () => {
    expect((await post('/api/control/motors', { mode: 'gravity_compensation' })).status).toBe(200);
    await until(() => state().motorMode === 'gravity_compensation', 3000);
    expect((await post('/api/control/motors', { mode: 'turbo' })).json).toMatchObject({ code: 'BAD_REQUEST' });
    await post('/api/control/motors', { mode: 'enabled' });
    await until(() => state().motorMode === 'enabled', 3000);
  });

  it('sleep ends with the motors relaxed; wake enables them and stands the head up', async () => {
    expect((await post('/api/control/sleep')).status).toBe(200);
    await until(() => state().motorMode === 'disabled', 8000);
    expect(state().head.pitch).toBeGreaterThan(15); // the sleep pose looks down
    expect((await post('/api/control/wake')).status).toBe(200);
    await until(() => state().motorMode === 'enabled', 3000);
    await until(() => Math.abs(state().head.pitch) < 2, 5000);
    expect(lastEvent('wake')?.text).toBe('wake: motors on, wake-up move');
  });
});

describe('control routes: edge validation', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['/api/control/look', {}, /at least one of yaw/],
    ['/api/control/look', { yaw: 'left' }, /^yaw must be a number \(degrees\)/],
    ['/api/control/look', { yew: 3 }, /unknown field yew/],
    ['/api/control/look', { z: null }, /^z must be a number \(millimetres\)/],
    ['/api/control/look', { yaw: 1, antennas: [1] }, /^antennas must be \[right, left\]/],
    ['/api/control/look', [1, 2], /body must be a JSON object/],
    ['/api/control/antennas', { right: 10 }, /^left is required/],
    ['/api/control/express', {}, /^name is required/],
    ['/api/control/express', { name: 7 }, /^name must be a string/],
    ['/api/control/motors', {}, /^mode is required/],
    ['/api/control/volume', {}, /^level is required/],
    ['/api/control/volume', { level: 101 }, /^level must be an integer 0-100/],
    ['/api/control/volume', { level: -1 }, /^level must be an integer 0-100/],
    ['/api/control/volume', { level: 50.5 }, /^level must be an integer 0-100/],
    ['/api/control/demo', { on: 'yes' }, /^on must be true or false/],
    ['/api/control/reel', { action: 'pause' }, /^action must be "start" or "abort"/],
    ['/api/control/say', {}, /^text is required/],
    ['/api/control/say', { text: '   ' }, /^text must not be empty/],
    ['/api/control/say', { text: 'x'.repeat(1001) }, /^text must be at most 1000 characters/],
  ];

  it.each(cases)('%s %j → 400 naming the field, nothing reaches the daemon', async (path, body, message) => {
    const before = spy.calls.filter((c) => c !== 'status' && c !== 'fullState').length;
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'BAD_REQUEST' });
    expect(String(res.json.error)).toMatch(message);
    expect(spy.calls.filter((c) => c !== 'status' && c !== 'fullState').length).toBe(before);
  });

  it('malformed JSON is a 400 too, and a caller without a credential is refused', async () => {
    expect((await post('/api/control/look', '{"yaw":')).json).toMatchObject({ code: 'BAD_JSON' });
    expect((await post('/api/control/home', undefined, 'none')).status).toBe(401);
  });
});

describe('control routes: volume, demo, reel', () => {
  it('answers volume at once and sends only the last of a burst (one test sound)', async () => {
    const before = sim.counters();
    // However slowly the requests arrive, they are one burst: the debounce's time stands still.
    for (const level of [10, 20, 30, 40, 55]) {
      expect((await post('/api/control/volume', { level })).json).toEqual({ level, pending: true });
    }
    expect(sim.counters().volumeSets).toBe(before.volumeSets);
    controlClock.advance(400);
    await until(() => sim.counters().volumeSets > before.volumeSets, 3000);
    await until(async () => (await robot.daemon.volume()) === 55);
    // Nothing else is waiting to go out, however long the quiet lasts.
    controlClock.advance(10_000);
    expect(controlClock.pending()).toBe(0);
    const after = sim.counters();
    expect(after.volumeSets - before.volumeSets).toBe(1);
    const beeps = (c: typeof after) => c.soundsPlayed.filter((s) => s.file === 'impatient1.wav').length;
    expect(beeps(after) - beeps(before)).toBe(1);
    expect(await robot.daemon.volume()).toBe(55);
  });

  it('demo pauses and resumes the registered personas', async () => {
    const log: string[] = [];
    const off = control.autonomy.register('thinker', {
      pause: () => void log.push('pause'),
      resume: () => void log.push('resume'),
    });
    expect((await post('/api/control/demo', { on: true })).json).toMatchObject({
      on: true,
      personas: { thinker: { paused: true } },
    });
    expect(robot.services.get('demo')?.state).toBe('running');
    expect((await post('/api/control/demo', { on: false })).json).toMatchObject({
      on: false,
      personas: { thinker: { paused: false } },
    });
    expect(log).toEqual(['pause', 'resume']);
    off();
  });

  it('starts the reel, shows its status, refuses a second start, aborts', async () => {
    const started = await post('/api/control/reel', { action: 'start' });
    expect(started.json).toMatchObject({ running: true, steps: 11 });
    await until(() => (robot.state()?.services['reel'] as { stepIndex?: number } | undefined)?.stepIndex === 0);
    expect(robot.services.get('reel')).toMatchObject({ state: 'running', running: true, step: 'wake', steps: 11 });
    expect(await post('/api/control/reel', { action: 'start' })).toMatchObject({
      status: 409,
      json: { code: 'CONFLICT' },
    });
    await until(async () => (await simRunning()).length === 1, 3000);
    const aborted = await post('/api/control/reel', { action: 'abort' });
    expect(aborted.json).toMatchObject({ running: true, reason: 'aborted by the operator' });
    await control.reelRunner.settled();
    expect(control.reelRunner.status()).toMatchObject({ running: false, outcome: 'aborted' });
    expect(robot.services.get('reel')?.state).toBe('off');
    await until(async () => (await simRunning()).length === 0, 1000);
  });
});

/** The clip's length from samples decoded by ffmpeg, independently of the cockpit's WAV reader. */
function decodedSeconds(text: string): number {
  const wav = execFileSync('espeak-ng', ['--stdout', '--', text]);
  const pcm = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', '16000', 'pipe:1'],
    { input: wav, maxBuffer: 64 * 1024 * 1024 },
  );
  return pcm.length / 2 / 16000;
}

describe('control routes: say', () => {
  it('speaks through the daemon with a wobble and answers the real length of the audio', async () => {
    const text = 'Hello! I am the cockpit robot, and this is my voice.';
    const wobbles = () => spy.calls.filter((c) => c === 'setWobbling').length;
    const before = wobbles();
    const res = await post('/api/control/say', { text });
    expect(res.status).toBe(200);
    expect(res.json.engine).toBe('espeak-ng');
    const seconds = res.json.seconds as number;
    const real = decodedSeconds(text);
    expect(Math.abs(seconds - real) / real).toBeLessThan(0.05);
    const played = sim.counters().soundsPlayed.at(-1);
    expect(played?.file).toMatch(/^cockpit-say-[ab]\.wav$/);
    expect(Math.abs((played?.seconds ?? 0) - seconds) / seconds).toBeLessThan(0.05);
    expect(wobbles() - before).toBe(1);
    expect(holds.live()).toContain('speaking');
    // The clip ends on the control's clock: just before its length it still plays.
    controlClock.advance(seconds * 1000 - 1);
    expect(holds.live()).toContain('speaking');
    controlClock.advance(1);
    await until(() => wobbles() - before === 2); // wobble off after the clip
    // The hold stays 0.8 s more for the last syllable (server/speech/speaker.ts), then goes.
    controlClock.advance(SPEAKING_TAIL_MS - 1);
    expect(holds.live()).toContain('speaking');
    controlClock.advance(1);
    expect(holds.live()).not.toContain('speaking');
    expect(lastEvent('say')).toMatchObject({
      text: `say "${text}" (${seconds.toFixed(1)} s)`,
      values: { engine: 'espeak-ng', seconds },
    });
  });
});

describe('control routes: the latched stop', () => {
  // How fast a stop lands is a latency, measured in bench/ (docs/testing.md); here, what it leaves behind.
  it('has emptied the daemon running moves by the time it answers, latches, and resumes', async () => {
    await post('/api/control/express', { name: 'laughing1' });
    await post('/api/control/reel', { action: 'start' });
    await until(async () => (await simRunning()).length > 0, 3000);
    const stop = await post('/api/control/stop');
    expect(await simRunning()).toEqual([]);
    expect(stop.json).toMatchObject({ latched: true, reelAborted: true, daemon: { ok: true } });
    expect(robot.state()?.services['stop']).toMatchObject({ state: 'running' });
    for (const [path, body] of [
      ['/api/control/look', { yaw: 5 }],
      ['/api/control/express', { name: 'yes1' }],
      ['/api/control/wake', undefined],
      ['/api/control/reel', { action: 'start' }],
      ['/api/control/say', { text: 'hi' }],
    ] as const) {
      expect(await post(path, body)).toMatchObject({
        status: 409,
        json: { code: 'STOP_LATCHED', error: 'stopped: resume from the dashboard first' },
      });
    }
    expect(control.streamTarget({ yaw: 3 }, { kind: 'token' })).toMatchObject({
      accepted: false,
      code: 'STOP_LATCHED',
    });
    expect((await post('/api/control/motors', { mode: 'enabled' })).status).toBe(200);
    expect(await post('/api/console/resume')).toMatchObject({
      status: 200,
      json: { latched: false, wasLatched: true },
    });
    expect(robot.services.get('stop')?.state).toBe('off');
    expect((await post('/api/control/look', { yaw: 5, duration: 0.3 })).status).toBe(200);
    expect(lastEvent('stop')?.text).toMatch(/move\(s\) cancelled/);
  });

  it('a stop with the daemon down still latches and says the daemon part failed', async () => {
    await fetch(`${sim.url}/sim/backend`, {
      method: 'POST',
      body: JSON.stringify({ action: 'stop' }),
      headers: { 'content-type': 'application/json' },
    });
    await until(async () => (await fetch(`${sim.url}/api/motors/status`)).status === 503, 5000);
    const look = await post('/api/control/look', { yaw: 10 });
    expect(look).toMatchObject({ status: 503, json: { code: 'DAEMON_STOPPED' } });
    // A joystick frame is refused the same way once the feed has seen it, not sent into the void.
    await until(() => 'daemon:stopped' in robot.health().problems, 5000);
    expect(control.streamTarget({ yaw: 3 }, { kind: 'token' })).toMatchObject({
      accepted: false,
      code: 'DAEMON_STOPPED',
    });
    expect(control.arbiter.current()).toBeUndefined();
    const stop = await post('/api/control/stop');
    expect(stop.status).toBe(200);
    expect(stop.json).toMatchObject({ latched: true, daemon: { ok: false } });
    expect(control.latch.engaged()).toBe(true);
    expect(lastEvent('stop')?.text).toMatch(/^stop latched, but the daemon part failed/);
    // The daemon refused stop_sound too: the receipt does not claim the speaker went quiet.
    expect(stop.json.stopped).toContain('speech NOT confirmed silenced');
    await fetch(`${sim.url}/sim/backend`, {
      method: 'POST',
      body: JSON.stringify({ action: 'start' }),
      headers: { 'content-type': 'application/json' },
    });
    await until(async () => (await fetch(`${sim.url}/api/motors/status`)).status === 200, 5000);
  });
});
