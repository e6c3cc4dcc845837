import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { trackingEngine } from './tracking.ts';
import { faceAt, flush, NO_FACE } from './testing/fakes.ts';
import { trackingRig } from './testing/tracking-rig.ts';

describe('start: adopt, autostart, poll pace', () => {
  it('autostart enables the tracker at weight 1 when none runs', async () => {
    const r = trackingRig();
    await r.tracking.start();
    expect(r.daemon.calls.slice(0, 2)).toEqual(['face', 'enable 1']);
    expect(r.tracking.status()).toMatchObject({ enabled: true, weight: 1, paused: false, engine: 'daemon:yunet' });
    await r.tracking.stop();
  });

  it('without autostart nothing is switched on, and nothing is switched off either', async () => {
    const r = trackingRig({ autostart: false });
    await r.tracking.start();
    await r.tick();
    expect(r.daemon.calls.filter((c) => c !== 'face')).toEqual([]);
    expect(r.tracking.status()).toMatchObject({ enabled: false, weight: null });
    await r.tracking.stop();
  });

  it('adopts a tracker already running (its face ts is set), even without autostart', async () => {
    const r = trackingRig({ autostart: false });
    r.daemon.nextFace = { ...NO_FACE, ts: 12.5 };
    r.daemon.on = true;
    await r.tracking.start();
    expect(r.tracking.status()).toMatchObject({ enabled: true, weight: 1 });
    await r.tracking.stop();
  });

  it('polls the face at 2 Hz at most, with one poll in flight', async () => {
    const r = trackingRig({ pollMs: 100 });
    await r.tracking.start();
    await flush();
    expect(r.timers.delays.at(-1)).toBe(500);
    let release = () => {};
    r.daemon.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = r.daemon.calls.filter((c) => c === 'face').length;
    const a = r.tracking.poll();
    const b = r.tracking.poll();
    await flush();
    expect(r.daemon.facesInFlight).toBe(1);
    release();
    await Promise.all([a, b]);
    expect(r.daemon.calls.filter((c) => c === 'face').length).toBe(before + 1);
    await r.tracking.stop();
    expect(r.timers.pending()).toBe(0);
  });

  it('a slow poll shortens the wait so the pace stays 2 Hz', async () => {
    const r = trackingRig();
    await r.tracking.start();
    await flush();
    r.daemon.gate = Promise.resolve().then(() => r.clock.advance(200));
    r.timers.runAll();
    await flush();
    expect(r.timers.delays.at(-1)).toBe(300);
    await r.tracking.stop();
  });

  it('a stop during the start-up read leaves the tracker off', async () => {
    const r = trackingRig();
    let release = () => {};
    r.daemon.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const starting = r.tracking.start();
    await flush();
    const stopping = r.tracking.stop();
    release();
    await Promise.all([starting, stopping]);
    await flush();
    expect(r.daemon.calls.filter((c) => c.startsWith('enable'))).toEqual([]);
    expect(r.timers.pending()).toBe(0);
  });

  it('names the engine honestly', () => {
    expect(trackingEngine(false)).toBe('reachy-mini');
    expect(trackingEngine(false, '1.13.0', true)).toBe('reachy-mini 1.13.0');
    expect(trackingEngine(false, '1.13.0', false)).toBe('reachy-mini 1.13.0: unavailable');
    expect(trackingEngine(true, '1.10.0.dev0', true)).toBe('sim:geometry');
  });
});

describe('holds arbitrate the weight', () => {
  it('any live hold means weight 0; none means weight 1', async () => {
    const r = trackingRig();
    await r.tracking.start();
    await r.tracking.hold('look', true, 5);
    expect(r.daemon.weight).toBe(0);
    expect(r.tracking.status()).toMatchObject({ paused: true, weight: 0, holds: [{ name: 'look', remaining: 5 }] });
    await r.tracking.hold('emotion:cheerful1', true, 10);
    await r.tracking.hold('look', false);
    expect(r.daemon.weight).toBe(0);
    await r.tracking.hold('emotion:cheerful1', false);
    expect(r.daemon.weight).toBe(1);
    expect(r.tracking.status().paused).toBe(false);
    await r.tracking.stop();
  });

  it('the arbiter-facing take/release work the same way', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.tracking.take('look', 2);
    await flush();
    expect(r.daemon.weight).toBe(0);
    r.tracking.release('look');
    await flush();
    expect(r.daemon.weight).toBe(1);
    await r.tracking.stop();
  });

  it('the latched stop holds the weight at 0 until the resume, with no expiry', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.tracking.take('look', 2);
    r.tracking.stopLatched(true);
    r.tracking.release('look');
    await r.tick(600);
    // Long past any hold's TTL: still paused, and said so.
    await r.tick(200_000);
    expect(r.daemon.weight).toBe(0);
    expect(r.tracking.status()).toMatchObject({ paused: true, holds: [] });
    r.tracking.stopLatched(false);
    await flush();
    expect(r.daemon.weight).toBe(1);
    expect(r.tracking.status().paused).toBe(false);
    await r.tracking.stop();
  });

  it('an expired hold hands the head back at the next poll', async () => {
    const r = trackingRig();
    await r.tracking.start();
    await r.tracking.hold('look', true, 1);
    expect(r.daemon.weight).toBe(0);
    await r.tick(600);
    expect(r.daemon.weight).toBe(0);
    await r.tick(500);
    expect(r.daemon.weight).toBe(1);
    expect(r.tracking.status()).toMatchObject({ paused: false, holds: [] });
    await r.tracking.stop();
  });

  it.each([
    [undefined, 20],
    [500, 120],
    [0.1, 0.5],
    [7, 7],
  ])('ttl %s is applied as %s s', async (asked, applied) => {
    const r = trackingRig();
    await r.tracking.start();
    expect(await r.tracking.hold('look', true, asked)).toEqual({ name: 'look', on: true, ttl: applied, active: true });
    expect(r.tracking.status().holds).toEqual([{ name: 'look', remaining: applied }]);
    await r.tracking.stop();
  });

  it('holds taken while tracking is off pause it once it is switched on', async () => {
    const r = trackingRig({ autostart: false });
    await r.tracking.start();
    await r.tracking.hold('look', true, 10);
    expect(r.daemon.calls.filter((c) => c.startsWith('enable'))).toEqual([]);
    await r.tracking.setEnabled(true);
    expect(r.daemon.calls.at(-1)).toBe('enable 0');
    await r.tracking.stop();
  });
});

describe('the speaking hold', () => {
  it('without a face it is recorded for the DoA turner but does not pause tracking', async () => {
    const r = trackingRig();
    await r.tracking.start();
    const result = await r.tracking.hold('speaking', true, 3);
    expect(result).toEqual({ name: 'speaking', on: true, ttl: 3, active: false });
    expect(r.daemon.weight).toBe(1);
    expect(r.tracking.isSpeaking(0)).toBe(true);
    r.clock.advance(3000);
    expect(r.tracking.isSpeaking(0)).toBe(false);
    expect(r.tracking.isSpeaking(1500)).toBe(true);
    r.clock.advance(1500);
    expect(r.tracking.isSpeaking(1500)).toBe(false);
    await r.tracking.stop();
  });

  it('with a face detected it pauses tracking', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.daemon.nextFace = faceAt(0.2);
    await r.tick();
    expect((await r.tracking.hold('speaking', true, 3)).active).toBe(true);
    expect(r.daemon.weight).toBe(0);
    await r.tracking.stop();
  });

  it('takes effect once a face is detected during the speech', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.tracking.take('speaking', 4);
    await r.tick();
    expect(r.daemon.weight).toBe(1);
    r.daemon.nextFace = faceAt(-0.3);
    await r.tick();
    expect(r.daemon.weight).toBe(0);
    expect(r.tracking.status().holds).toEqual([{ name: 'speaking', remaining: 3 }]);
    await r.tracking.stop();
  });

  it('release ends it now, leaving only the tail', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.tracking.take('speaking', 20);
    r.clock.advance(1000);
    r.tracking.release('speaking');
    expect(r.tracking.isSpeaking(0)).toBe(false);
    expect(r.tracking.isSpeaking(1500)).toBe(true);
    await r.tracking.stop();
  });
});

describe('switching on and off', () => {
  it('off disables the daemon tracker and forgets the face', async () => {
    const r = trackingRig();
    await r.tracking.start();
    r.daemon.nextFace = faceAt(0.4, -0.2);
    await r.tick();
    expect(r.tracking.status()).toMatchObject({ detected: true, x: 0.4, y: -0.2 });
    const status = await r.tracking.setEnabled(false);
    expect(r.daemon.calls.at(-1)).toBe('disable');
    expect(status).toMatchObject({ enabled: false, detected: false, x: null, weight: null });
    const faces = r.daemon.calls.filter((c) => c === 'face').length;
    await r.tick();
    expect(r.daemon.calls.filter((c) => c === 'face').length).toBe(faces);
    await r.tracking.stop();
  });

  it('a daemon without a camera refuses: the error says so and tracking stays off', async () => {
    const r = trackingRig({ autostart: false });
    await r.tracking.start();
    r.daemon.noCamera = true;
    await expect(r.tracking.setEnabled(true)).rejects.toMatchObject({ code: 'DAEMON_ERROR', message: /no camera/ });
    expect(r.tracking.status().enabled).toBe(false);
    await r.tracking.stop();
  });

  it('a stopped daemon backend is a DAEMON_STOPPED refusal', async () => {
    const r = trackingRig({ autostart: false });
    await r.tracking.start();
    r.daemon.failWith = new AppError('DAEMON_STOPPED', 'the robot daemon backend is not running');
    await expect(r.tracking.setEnabled(true)).rejects.toMatchObject({ code: 'DAEMON_STOPPED' });
    expect(r.tracking.status().enabled).toBe(false);
    await r.tracking.stop();
  });

  it('stop switches the tracker off and ends the loop', async () => {
    const r = trackingRig();
    await r.tracking.start();
    await flush();
    await r.tracking.stop();
    expect(r.daemon.calls.at(-1)).toBe('disable');
    expect(r.timers.pending()).toBe(0);
  });
});

describe('frames and services', () => {
  it('broadcasts on (enabled, paused, detected, x, y to 2 decimals) changes only', async () => {
    const r = trackingRig();
    await r.tracking.start();
    const count = r.frames.length;
    expect(r.frames.at(-1)).toMatchObject({ type: 'tracking', enabled: true, paused: false, detected: false });
    await r.tick();
    expect(r.frames.length).toBe(count);
    r.daemon.nextFace = faceAt(0.301, 0.1);
    await r.tick();
    r.daemon.nextFace = faceAt(0.302, 0.1);
    await r.tick();
    expect(r.frames.length).toBe(count + 1);
    r.daemon.nextFace = faceAt(0.35, 0.1);
    await r.tick();
    expect(r.frames.length).toBe(count + 2);
    await r.tracking.hold('look', true, 5);
    expect(r.frames.at(-1)).toMatchObject({ type: 'tracking', paused: true, holds: [{ name: 'look' }] });
    await r.tracking.stop();
  });

  it('keeps the tracking service line up to date', async () => {
    const r = trackingRig({ autostart: false });
    await r.tracking.start();
    expect(r.services.get('tracking')).toEqual({ state: 'off', detail: 'face tracking off' });
    await r.tracking.setEnabled(true);
    expect(r.services.get('tracking')?.state).toBe('running');
    await r.tracking.hold('look', true, 5);
    expect(r.services.get('tracking')).toEqual({ state: 'paused', detail: 'paused by look' });
    await r.tracking.stop();
  });
});
