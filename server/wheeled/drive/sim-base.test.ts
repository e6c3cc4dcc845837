import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FRAME_SECONDS, MAX_FRAME_SECONDS, parseDriveInput } from './frame-input.ts';
import { bodyVelocity, integrate, SIM_LIMITS, wrapAngle } from './kinematics.ts';
import { createSimBase, type SimBase } from './sim-base.ts';

describe('differential-drive kinematics', () => {
  it('keeps both wheels within their top speed, slowing a fast turn while driving', () => {
    const straight = bodyVelocity({ linear: 1, angular: 0 }, SIM_LIMITS);
    expect(straight).toMatchObject({ v: 0.8, w: 0, left: 0.8, right: 0.8 });
    const both = bodyVelocity({ linear: 1, angular: 1 }, SIM_LIMITS);
    expect(Math.max(Math.abs(both.left), Math.abs(both.right))).toBeCloseTo(SIM_LIMITS.maxWheel);
    expect(both.v).toBeLessThan(0.8);
    expect(both.w / both.v).toBeCloseTo(SIM_LIMITS.maxAngular / SIM_LIMITS.maxLinear);
  });

  it('moves along straight lines and exact arcs', () => {
    expect(integrate({ x: 0, y: 0, heading: 0 }, 1, 0, 2)).toEqual({ x: 2, y: 0, heading: 0 });
    // A quarter circle of radius 1, counter-clockwise: from (0,0) facing +x to (1,1) facing +y.
    const quarter = integrate({ x: 0, y: 0, heading: 0 }, Math.PI / 2, Math.PI / 2, 1);
    expect(quarter.x).toBeCloseTo(1);
    expect(quarter.y).toBeCloseTo(1);
    expect(quarter.heading).toBeCloseTo(Math.PI / 2);
    expect(wrapAngle(3 * Math.PI)).toBeCloseTo(Math.PI);
  });
});

describe('drive frames are clamped', () => {
  it('clamps values to [-1, 1] and the duration to at most 1 s', () => {
    expect(parseDriveInput({ linear: 3, angular: -7, duration: 12 })).toEqual({
      linear: 1,
      angular: -1,
      duration: MAX_FRAME_SECONDS,
      clamped: true,
    });
    expect(parseDriveInput({ linear: 0.5, angular: 0.25, duration: 0.2 })).toEqual({
      linear: 0.5,
      angular: 0.25,
      duration: 0.2,
      clamped: false,
    });
    expect(parseDriveInput({ linear: 0.5 })).toEqual({
      linear: 0.5,
      angular: 0,
      duration: DEFAULT_FRAME_SECONDS,
      clamped: false,
    });
    expect(parseDriveInput({ stop: true, linear: 1 })).toEqual({ stop: true });
  });

  it('refuses what is not a number rather than guessing', () => {
    for (const bad of [
      { linear: '1', angular: 0 },
      { linear: Number.NaN },
      {},
      { linear: 0, duration: -1 },
      { stop: 'yes' },
      [1, 2],
      null,
    ]) {
      expect(() => parseDriveInput(bad)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    }
  });
});

describe('simulated base', () => {
  let base: SimBase;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
    base = createSimBase({ cameraFps: 0 });
  });
  afterEach(async () => {
    await base.close();
    vi.useRealTimers();
  });

  const speed = () => base.telemetry()?.linear ?? Number.NaN;
  const x = () => base.telemetry()?.pose.x ?? Number.NaN;

  it('drives for the frame duration only: stopped within duration + 100 ms after the last frame', () => {
    base.drive({ linear: 1, angular: 0 }, Date.now() + 500);
    vi.advanceTimersByTime(250);
    expect(speed()).toBeCloseTo(0.8);
    expect(x()).toBeCloseTo(0.2);
    vi.advanceTimersByTime(250 + 100);
    expect(speed()).toBe(0);
    const stoppedAt = x();
    expect(stoppedAt).toBeCloseTo(0.4);
    vi.advanceTimersByTime(2000);
    expect(x()).toBe(stoppedAt);
  });

  it('never moves past the deadline even when the watchdog timer fires late', () => {
    base.drive({ linear: 1, angular: 0 }, Date.now() + 300);
    // The clock moves on without the timer having run (a busy event loop).
    vi.setSystemTime(Date.now() + 900);
    expect(x()).toBeCloseTo(0.24);
    expect(speed()).toBe(0);
  });

  it('keeps moving only under a stream of frames', () => {
    for (let i = 0; i < 10; i += 1) {
      base.drive({ linear: 0.5, angular: 0 }, Date.now() + 300);
      vi.advanceTimersByTime(100);
    }
    expect(speed()).toBeCloseTo(0.4);
    expect(x()).toBeCloseTo(0.4);
    vi.advanceTimersByTime(400);
    expect(speed()).toBe(0);
  });

  it('stops at once on stop', () => {
    base.drive({ linear: 1, angular: 0.5 }, Date.now() + 1000);
    vi.advanceTimersByTime(200);
    base.stop();
    const where = base.telemetry()?.pose;
    expect(speed()).toBe(0);
    vi.advanceTimersByTime(500);
    expect(base.telemetry()?.pose).toEqual(where);
  });

  it('turns on the spot counter-clockwise for a positive angular', () => {
    base.drive({ linear: 0, angular: 1 }, Date.now() + 500);
    vi.advanceTimersByTime(500);
    const t = base.telemetry();
    expect(t?.pose.x).toBeCloseTo(0);
    expect(t?.pose.heading).toBeCloseTo(SIM_LIMITS.maxAngular * 0.5);
    base.resetOdometry();
    expect(base.telemetry()?.pose).toEqual({ x: 0, y: 0, heading: 0 });
  });
});
