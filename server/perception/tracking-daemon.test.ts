/** Tracking and the daemon's life: a restart re-enables it; a daemon without a camera is asked again at a slow backoff. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { faceAt, NO_FACE } from './testing/fakes.ts';
import { trackingRig, type TrackingRig } from './testing/tracking-rig.ts';

describe('daemon restart', () => {
  it('two consecutive polls with a null ts at weight 1 and no hold re-enable the tracker', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.daemon.nextFace = faceAt(0.1);
    await r.tick();
    r.daemon.on = false;
    r.daemon.nextFace = { ...NO_FACE };
    await r.tick();
    expect(r.daemon.on).toBe(false);
    await r.tick();
    expect(r.daemon.on).toBe(true);
    expect(r.daemon.calls.at(-1)).toBe('enable 1');
    expect(r.tracking.status().reenabled).toBe(1);
    await r.tracking.stop();
  });

  it('a single null ts, or null ts under a hold (the daemon clears the aim at weight 0), is no restart', async () => {
    const r = trackingRig();
    r.daemon.nextFace = { ...NO_FACE, ts: 1 }; // running, no face in view
    await r.tracking.start();
    await r.tick();
    r.daemon.nextFace = { ...NO_FACE };
    await r.tick();
    r.daemon.nextFace = faceAt(0.1);
    await r.tick();
    r.daemon.nextFace = { ...NO_FACE };
    await r.tick();
    await r.tracking.hold('emotion:sad1', true, 20);
    await r.tick();
    await r.tick();
    await r.tick();
    expect(r.tracking.status().reenabled).toBe(0);
    await r.tracking.stop();
  });

  it('the daemon leaving running and coming back re-enables it', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.daemon.nextFace = faceAt(0.1);
    await r.tick();
    r.setDaemonState('stopped');
    r.daemon.on = false;
    const faces = r.daemon.calls.filter((c) => c === 'face').length;
    await r.tick();
    expect(r.daemon.calls.filter((c) => c === 'face').length).toBe(faces);
    expect(r.tracking.status().detected).toBe(false);
    r.setDaemonState('running');
    await r.tick();
    expect(r.daemon.on).toBe(true);
    expect(r.tracking.status().reenabled).toBe(1);
    await r.tracking.stop();
  });

  it('an autostart that met a daemon not up yet keeps trying, at a calm pace', async () => {
    const r = trackingRig();
    r.daemon.failWith = new AppError('DAEMON_UNREACHABLE', 'the robot daemon does not answer');
    await r.tracking.start();
    expect(r.tracking.status()).toMatchObject({ enabled: true, weight: null });
    expect(r.tracking.status().error).toMatch(/does not answer/);
    const tries = () => r.daemon.calls.filter((c) => c.startsWith('enable')).length;
    await r.tick(500);
    expect(tries()).toBe(1);
    r.daemon.failWith = null;
    await r.tick(2600);
    expect(tries()).toBe(2);
    expect(r.tracking.status()).toMatchObject({ enabled: true, weight: 1, error: null });
    await r.tracking.stop();
  });
});

describe('a daemon without a camera (enable answers `unavailable`)', () => {
  const enables = (r: TrackingRig) => r.daemon.calls.filter((c) => c.startsWith('enable')).length;
  /** Loop turns at the poll's pace for `ms`. */
  const run = async (r: TrackingRig, ms: number) => {
    for (let t = 0; t < ms; t += 500) await r.tick(500);
  };

  it('autostart ends in the same state as a refused POST: off, with the reason, the service stopped', async () => {
    const auto = trackingRig();
    auto.daemon.noCamera = true;
    await auto.tracking.start();
    await auto.tick();
    const asked = trackingRig({ autostart: false });
    asked.daemon.noCamera = true;
    await asked.tracking.start();
    await expect(asked.tracking.setEnabled(true)).rejects.toMatchObject({ code: 'DAEMON_ERROR' });
    for (const r of [auto, asked]) {
      expect(r.tracking.status()).toMatchObject({ enabled: false, paused: false, weight: null, error: /unavailable/ });
      expect(r.tracking.enabled()).toBe(false);
      expect(r.services.get('tracking')).toEqual({ state: 'stopped', detail: expect.stringMatching(/unavailable/) });
      expect(r.frames.at(-1)).toMatchObject({ type: 'tracking', enabled: false });
      await r.tracking.stop();
    }
  });

  it('is asked again at a slow backoff, not at every poll, and holds do not ask it', async () => {
    const r = trackingRig();
    r.daemon.noCamera = true;
    await r.tracking.start();
    const faces = r.daemon.calls.filter((c) => c === 'face').length;
    await r.tracking.hold('look', true, 5);
    r.tracking.take('emotion:sad1', 2);
    r.tracking.release('emotion:sad1');
    await run(r, 29_500);
    expect(enables(r)).toBe(1);
    await r.tick();
    expect(enables(r)).toBe(2); // 30 s after the first answer
    await run(r, 59_500);
    expect(enables(r)).toBe(2);
    await r.tick();
    expect(enables(r)).toBe(3); // then 60 s
    expect(r.daemon.calls.filter((c) => c === 'face').length).toBe(faces);
    expect(r.tracking.status().enabled).toBe(false);
    await r.tracking.stop();
    expect(r.daemon.calls.at(-1)).not.toBe('disable'); // it is off already
  });

  it('comes on when a backoff ask finds the camera back', async () => {
    const r = trackingRig();
    r.daemon.noCamera = true;
    await r.tracking.start();
    await run(r, 29_500);
    r.daemon.noCamera = false;
    await r.tick();
    expect(r.tracking.status()).toMatchObject({ enabled: true, weight: 1, error: null });
    expect(r.services.get('tracking')).toEqual({ state: 'running', detail: 'looking for a face' });
    await r.tracking.stop();
  });

  it('a daemon back to running is asked at once', async () => {
    const r = trackingRig();
    r.daemon.noCamera = true;
    await r.tracking.start();
    await r.tick();
    r.setDaemonState('stopped');
    await r.tick();
    r.daemon.noCamera = false;
    r.setDaemonState('running');
    await r.tick();
    expect(enables(r)).toBe(2);
    expect(r.tracking.status()).toMatchObject({ enabled: true, weight: 1, error: null });
    await r.tracking.stop();
  });

  it('a refused POST ends the wish: nothing more is asked', async () => {
    const r = trackingRig();
    r.daemon.noCamera = true;
    await r.tracking.start();
    await expect(r.tracking.setEnabled(true)).rejects.toMatchObject({ code: 'DAEMON_ERROR', message: /no camera/ });
    expect(enables(r)).toBe(2);
    await run(r, 20 * 60_000);
    expect(enables(r)).toBe(2);
    await r.tracking.stop();
  });

  it('a daemon that does not answer is no running service either', async () => {
    const r = trackingRig();
    r.daemon.failWith = new AppError('DAEMON_UNREACHABLE', 'the robot daemon does not answer');
    await r.tracking.start();
    expect(r.services.get('tracking')).toEqual({ state: 'stopped', detail: 'the robot daemon does not answer' });
    await r.tracking.stop();
  });
});
