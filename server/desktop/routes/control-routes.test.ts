/** The control routes over a simulated daemon: moves, edge validation, volume, demo and the reel. */
import { describe, expect, it } from 'vitest';
import { until } from '../../motion/testing/rig.ts';
import { recordedMove } from '../../sim/library.ts';
import { EMOTIONS_DATASET } from '../../sim/library-names.ts';
import {
  control,
  controlClock,
  holds,
  lastEvent,
  near,
  post,
  robot,
  sim,
  simRunning,
  spy,
  state,
  useControlRoutesRig,
} from './testing/control-routes-rig.ts';

useControlRoutesRig();

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
