/**
 * "Check the robot" through a real cockpit and its simulator, with each fault injected in turn:
 * a motor error, a silent microphone, no camera, the daemon's backend down, an app holding the
 * robot. Every check answers on its own: a failing one never hides or blocks the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelfTestCheck, SelfTestResult } from '../../contract/selftest.ts';
import { startHarness, until, type Harness } from '../../testing/cockpit-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ROBOT_RATE_LIMIT: '1000' });
});
afterAll(() => h.close());

async function selftest(body?: unknown): Promise<{ status: number; result: SelfTestResult }> {
  const res = await h.authed('/api/console/selftest', {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: res.status, result: (await res.json()) as SelfTestResult };
}

const check = (result: SelfTestResult, id: string): SelfTestCheck => {
  const found = result.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id} check`);
  return found;
};

/** The camera check found frames: ok, or a warning about their rate only (never a fail). */
const cameraFine = (result: SelfTestResult): boolean => {
  const camera = check(result, 'camera');
  return camera.outcome === 'ok' || (camera.outcome === 'warn' && camera.detail.startsWith('Frames arrive at only'));
};

const ALL = ['daemon', 'motors', 'doa', 'speaker', 'joints', 'camera', 'microphone', 'disk', 'descriptors', 'clock'];

describe('the self-test', () => {
  it('passes the robot checks on a healthy simulated robot, skipping the move unless confirmed', async () => {
    const { status, result } = await selftest();
    expect(status).toBe(200);
    expect(result.checks.map((c) => c.id)).toEqual(ALL);
    for (const id of ['motors', 'doa', 'speaker', 'microphone']) expect(check(result, id).outcome, id).toBe('ok');
    // The simulator is no robot, and the run says so rather than pass as one.
    expect(check(result, 'daemon')).toMatchObject({ outcome: 'warn', values: { physics: 'mockup' } });
    expect(check(result, 'daemon').detail).toMatch(/simulates the robot/);
    // Frames arrived; whether their rate earns a warning is the decoder's pace on this machine,
    // judged in server/selftest/checks.test.ts with rates the test sets.
    expect(cameraFine(result)).toBe(true);
    expect(check(result, 'daemon').values).toMatchObject({ version: '1.10.0.dev0' });
    expect(check(result, 'camera').values).toMatchObject({ width: 640, height: 360 });
    expect(check(result, 'microphone').values).toMatchObject({ allZeros: false });
    expect((check(result, 'microphone').values?.meter as number[]).length).toBe(30);
    expect(check(result, 'joints')).toMatchObject({
      outcome: 'skipped',
      detail: 'Not run: the small test move needs your confirmation.',
    });
    const sim = (await (await h.sim('/sim/status')).json()) as { counters: { soundsPlayed: { file: string }[] } };
    expect(sim.counters.soundsPlayed.some((s) => s.file.endsWith('impatient1.wav'))).toBe(true);
    // The last result is kept, for the dashboard and the diagnostics bundle.
    const bundle = (await (await h.authed('/api/console/diagnostics/bundle')).json()) as { selftest: SelfTestResult };
    expect(bundle.selftest.startedAt).toBe(result.startedAt);
  });

  it('moves the head a little when confirmed and finds every joint within limits', async () => {
    const { result } = await selftest({ confirmMove: true });
    expect(check(result, 'joints')).toMatchObject({ outcome: 'ok', values: { targetYaw: 10 } });
  });

  it('flags an injected motor error with what to do, and still runs everything else', async () => {
    await h.sim('/sim/motors', { error: 'Overload on motor stewart_3 (id 13)' });
    try {
      const { result } = await selftest();
      expect(result.outcome).toBe('fail');
      const motors = check(result, 'motors');
      expect(motors.outcome).toBe('fail');
      expect(motors.detail).toBe('The motor controller reports: Overload on motor stewart_3 (id 13)');
      expect(motors.advice).toMatch(/let the robot cool/);
      expect(check(result, 'daemon').outcome).toBe('warn');
      expect(check(result, 'microphone').outcome).toBe('ok');
    } finally {
      await h.sim('/sim/motors', { error: null });
    }
  });

  it('flags a microphone that records only zeros as the known Linux/USB fault', async () => {
    await h.sim('/sim/microphone/silent', { on: true });
    try {
      const { result } = await selftest();
      const mic = check(result, 'microphone');
      expect(mic.outcome).toBe('fail');
      expect(mic.detail).toMatch(/^The microphone recorded (only zeros|digital silence) for 3 s/);
      expect(mic.advice).toMatch(/known Linux\/USB audio fault/);
      expect(cameraFine(result)).toBe(true);
    } finally {
      await h.sim('/sim/microphone/silent', { on: false });
    }
  });

  it('fails the camera check when the camera is gone', async () => {
    await h.sim('/sim/camera', { on: false });
    try {
      const { result } = await selftest();
      expect(check(result, 'camera')).toMatchObject({ outcome: 'fail' });
      expect(check(result, 'camera').advice).toMatch(/Camera not found/);
      expect(check(result, 'motors').outcome).toBe('ok');
    } finally {
      await h.sim('/sim/camera', { on: true });
    }
  });

  it('answers every check with the daemon backend down', async () => {
    await h.sim('/sim/backend', { action: 'stop' });
    try {
      const { result } = await selftest({ confirmMove: true });
      expect(result.checks.map((c) => c.id)).toEqual(ALL);
      expect(check(result, 'daemon')).toMatchObject({ outcome: 'fail' });
      expect(check(result, 'daemon').detail).toMatch(/backend is stopped/);
      expect(check(result, 'motors').outcome).toBe('fail');
      expect(check(result, 'joints').outcome).toBe('fail');
    } finally {
      await h.sim('/sim/backend', { action: 'start' });
      await until(
        async () => ((await (await h.sim('/sim/status')).json()) as { backend: { ready: boolean } }).backend.ready,
        10_000,
      );
    }
  });

  it('does not move the robot while an app holds it', async () => {
    const job = (await (
      await h.authed('/api/console/apps/install', {
        method: 'POST',
        body: JSON.stringify({ name: 'hello_wave' }),
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as { id: string };
    await until(
      async () =>
        ((await (await h.authed(`/api/console/apps/jobs/${job.id}`)).json()) as { status: string }).status === 'done',
      10_000,
    );
    await h.authed('/api/console/apps/start', {
      method: 'POST',
      body: JSON.stringify({ name: 'hello_wave' }),
      headers: { 'content-type': 'application/json' },
    });
    try {
      await h.cockpit.features.apps.refresh();
      const { result } = await selftest({ confirmMove: true });
      expect(check(result, 'joints')).toMatchObject({
        outcome: 'skipped',
        detail: 'Not run: the app hello_wave holds the robot.',
      });
    } finally {
      await h.authed('/api/console/apps/stop', { method: 'POST' });
    }
  });

  it("does not move the robot while the daemon's app lock is held by a remote session or an app it runs", async () => {
    const looks = () => h.cockpit.features.events.recent(200).filter((e) => e.action === 'look').length;
    const before = looks();
    await h.sim('/sim/app-lock', { state: 'remote_session' });
    try {
      // The cockpit runs no app: only the daemon knows the robot is held.
      expect(h.cockpit.features.apps.overview().current).toBeNull();
      const { result } = await selftest({ confirmMove: true });
      expect(check(result, 'joints')).toMatchObject({
        outcome: 'skipped',
        detail: "Not run: the robot is in use by a remote session (the daemon's app lock).",
        advice: 'Stop that app or end the remote session, then check again.',
      });
      await h.sim('/sim/app-lock', { state: 'local_app', holder: 'dance_party' });
      const byApp = await selftest({ confirmMove: true });
      expect(check(byApp.result, 'joints').detail).toBe(
        "Not run: the robot is in use by the app dance_party (the daemon's app lock).",
      );
    } finally {
      await h.sim('/sim/app-lock', { state: 'free' });
    }
    expect(looks()).toBe(before);
    // Free again: the test move runs, and is seen where the refused ones were not.
    const { result } = await selftest({ confirmMove: true });
    expect(check(result, 'joints').outcome).toBe('ok');
    expect(looks()).toBeGreaterThan(before);
  });

  it('leaves a running reel the head: the joint check is skipped, naming it, and the reel plays on', async () => {
    const reel = (action: string) =>
      h.authed('/api/control/reel', {
        method: 'POST',
        body: JSON.stringify({ action }),
        headers: { 'content-type': 'application/json' },
      });
    const control = h.cockpit.features.control;
    expect((await reel('start')).status).toBe(200);
    try {
      const { result } = await selftest({ confirmMove: true });
      expect(check(result, 'joints')).toMatchObject({
        outcome: 'skipped',
        detail: 'Not run: the head is in use by the reel.',
        advice: 'Wait until it ends, or end it, then check again.',
      });
      // The reel was not taken over by the test move (it runs about a minute).
      expect(control.reelRunner.status()).toMatchObject({ running: true, outcome: null });
    } finally {
      await reel('abort');
    }
    await control.reelRunner.settled();
    expect(control.reelRunner.status()).toMatchObject({ outcome: 'aborted' });
  });

  it('refuses a malformed body with 400', async () => {
    const res = await h.authed('/api/console/selftest', {
      method: 'POST',
      body: '{"confirmMove":"yes"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_REQUEST', error: 'confirmMove must be true or false' });
  });
});
