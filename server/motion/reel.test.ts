import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lookStep, recordedStep, SHOWCASE_REEL, type ReelStep } from './reel-script.ts';
import { startRig, until, type Rig } from './testing/rig.ts';

let rig: Rig;
const SHORT = [
  lookStep('look left', { yaw: 20 }, 0.3),
  recordedStep('yes1'),
  lookStep('look right', { yaw: -20 }, 0.3),
];

beforeAll(async () => {
  rig = await startRig({ reel: { script: SHORT, pauseMs: 50 } });
});
afterAll(() => rig.close());
beforeEach(async () => {
  if (rig.control.latch.engaged()) rig.control.resume('token');
  await rig.control.reelRunner.settled();
  await rig.control.arbiter.stopAll();
});

describe('showcase reel', () => {
  it('is the scripted show described in docs/contract.md, "Reel"', () => {
    expect(SHOWCASE_REEL.map((s) => s.label)).toEqual([
      'wake',
      'welcoming1',
      'look left',
      'look right',
      'curious1',
      'look up',
      'groovy_sway_and_roll',
      'laughing1',
      'antenna wiggle',
      'proud1',
      'home',
    ]);
  });

  it('runs step by step, one move at a time, and reports its progress', async () => {
    // Every progress the reel reports, as it reports it: sampling could miss a short step.
    const seen = new Set<string>();
    const set = rig.services.set.bind(rig.services);
    rig.services.set = (key, value) => {
      if (key === 'reel') seen.add(String(value.detail));
      return set(key, value);
    };
    let maxRunning = 0;
    await rig.control.reel('start', 'passkey');
    await until(async () => {
      maxRunning = Math.max(maxRunning, (await rig.running()).length);
      return !rig.control.reelRunner.status().running;
    }, 30_000);
    rig.services.set = set;
    // Never two moves at once (a busy machine may sample none running: a step can be short).
    expect(maxRunning).toBeLessThanOrEqual(1);
    expect([...seen]).toEqual(
      expect.arrayContaining(['step 1/3: look left', 'step 2/3: yes1', 'step 3/3: look right']),
    );
    expect(rig.control.reelRunner.status()).toMatchObject({
      running: false,
      outcome: 'completed',
      steps: 3,
      stepIndex: 2,
      step: 'look right',
    });
    expect(rig.services.get('reel')).toMatchObject({ state: 'off', detail: 'last run completed' });
    expect(rig.events.filter((e) => e.action === 'reel').map((e) => [e.text, e.credential])).toEqual([
      ['reel started (3 steps)', 'passkey'],
      ['reel finished', 'system'],
    ]);
  });

  it('refuses a second start and aborts on request, cancelling the step that runs', async () => {
    const started = await rig.control.reel('start', 'token');
    expect(started).toMatchObject({ running: true, steps: 3, outcome: null });
    expect(typeof started.startedAt).toBe('string');
    await expect(rig.control.reel('start', 'token')).rejects.toMatchObject({ code: 'CONFLICT' });
    await until(() => rig.control.reelRunner.status().step === 'yes1');
    await until(async () => (await rig.running()).length === 1);
    await rig.control.reel('abort', 'token');
    await rig.control.reelRunner.settled();
    expect(rig.control.reelRunner.status()).toMatchObject({
      running: false,
      outcome: 'aborted',
      reason: 'aborted by the operator',
    });
    await until(async () => (await rig.running()).length === 0, 1000);
  });

  it('ends when a person takes the head over, leaving their move alone', async () => {
    await rig.control.reel('start', 'token');
    await until(() => rig.control.arbiter.current()?.label.startsWith('reel ') === true);
    const mine = await rig.control.look({ yaw: 10, duration: 2 }, 'passkey');
    await rig.control.reelRunner.settled();
    expect(rig.control.reelRunner.status()).toMatchObject({ outcome: 'aborted', reason: 'taken over by look' });
    expect(await rig.running()).toEqual([mine.uuid]);
  });

  it('fails cleanly when a step cannot run', async () => {
    const broken = await startRig({ reel: { script: [recordedStep('not-a-move')], pauseMs: 10 } });
    try {
      await broken.control.reel('start', 'token');
      await broken.control.reelRunner.settled();
      expect(broken.control.reelRunner.status()).toMatchObject({
        outcome: 'failed',
        reason: 'no move named "not-a-move" in the library',
      });
      expect(broken.events.at(-1)?.text).toBe('reel failed at not-a-move: no move named "not-a-move" in the library');
    } finally {
      await broken.close();
    }
  });

  it('ends when an app takes the robot mid-reel, and does not start while one holds it', async () => {
    // The middle step hands the robot to an app (the simulator's lock), then asks for its move.
    let simCall: Rig['simCall'] = async () => undefined;
    const takeOver: ReelStep = {
      label: 'an app takes the robot',
      run: async (reel) => {
        await simCall('/sim/app-lock', { state: 'local_app', holder: 'hello_world' });
        await SHORT[0]?.run(reel);
      },
    };
    const locked = await startRig({
      reel: { script: [SHORT[0] as ReelStep, takeOver, SHORT[2] as ReelStep], pauseMs: 10 },
    });
    simCall = locked.simCall;
    try {
      await locked.control.reel('start', 'token');
      await locked.control.reelRunner.settled();
      expect(locked.control.reelRunner.status()).toMatchObject({
        outcome: 'failed',
        step: 'an app takes the robot',
        reason: expect.stringMatching(/in use by the app "hello_world"/),
      });
      expect(await locked.running()).toEqual([]);
      await expect(locked.control.reel('start', 'token')).rejects.toMatchObject({ code: 'ROBOT_APP_LOCKED' });
      expect(locked.control.reelRunner.status().running).toBe(false);
    } finally {
      await locked.close();
    }
  });

  it('the latched stop aborts it and refuses a new start', async () => {
    await rig.control.reel('start', 'token');
    await until(async () => (await rig.running()).length === 1);
    const stop = await rig.control.stop('token');
    expect(stop).toMatchObject({ reelAborted: true, daemon: { ok: true } });
    expect(await rig.running()).toEqual([]);
    await rig.control.reelRunner.settled();
    expect(rig.control.reelRunner.status()).toMatchObject({ outcome: 'aborted', reason: 'stop' });
    await expect(rig.control.reel('start', 'token')).rejects.toMatchObject({ code: 'STOP_LATCHED' });
  });
});
