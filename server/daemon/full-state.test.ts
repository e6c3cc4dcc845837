/**
 * The daemon's state body read as outside input (full-state.ts): a head pose that cannot be read
 * refuses the body, any other member of the wrong type is read as absent, and nothing that comes
 * out is NaN or throws further on (robot-state.ts).
 */
import { describe, expect, it } from 'vitest';
import { readFullState } from './full-state.ts';
import { buildRobotState } from './robot-state.ts';
import type { FeedSnapshot } from './state-feed.ts';

const GOOD = {
  control_mode: 'enabled',
  head_pose: { x: 0.01, y: 0, z: 0.02, roll: 0, pitch: 0.1, yaw: -0.2 },
  head_joints: null,
  body_yaw: 0.5,
  antennas_position: [0.1, -0.1],
  timestamp: '2026-12-02T16:00:00Z',
  passive_joints: null,
  doa: { angle: Math.PI / 2, speech_detected: true },
  imu: null,
};

/** Every number of a value, however deep. */
function numbersIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(numbersIn);
  return typeof value === 'number' ? [value] : [];
}

describe("the daemon's state body", () => {
  it('is read as sent when it is well formed, a pose matrix included', () => {
    expect(readFullState(GOOD)).toEqual({ ok: true, state: GOOD });
    const m = [1, 0, 0, 0.01, 0, 1, 0, 0, 0, 0, 1, 0.02, 0, 0, 0, 1];
    expect(readFullState({ ...GOOD, head_pose: { m } })).toMatchObject({ ok: true, state: { head_pose: { m } } });
    expect(readFullState({ ...GOOD, head_pose: null })).toMatchObject({ ok: true, state: { head_pose: null } });
    // Axes it leaves out, or sends as null, are absent.
    expect(readFullState({ ...GOOD, head_pose: { yaw: 0.3, roll: null } })).toMatchObject({
      ok: true,
      state: { head_pose: { yaw: 0.3 } },
    });
  });

  it('is refused whole when it is not an object or its head pose cannot be read', () => {
    for (const body of [null, 5, 'state', [GOOD]])
      expect(readFullState(body)).toEqual({ ok: false, reason: 'not an object' });
    for (const head_pose of [
      5,
      'x',
      [1, 2],
      true,
      { m: 'x' },
      { m: [[1]] },
      { m: Array(15).fill(0) },
      { x: 'a' },
      { yaw: Infinity },
    ]) {
      expect(readFullState({ ...GOOD, head_pose })).toEqual({ ok: false, reason: 'its head_pose is not a pose' });
    }
  });

  it('reads any other member of the wrong type as absent, and the robot state built on it holds finite numbers only', () => {
    const hostile = {
      ...GOOD,
      control_mode: 5,
      head_joints: [1, 'x'],
      body_yaw: 'x',
      antennas_position: [null, 'x'],
      timestamp: {},
      passive_joints: 'none',
      doa: { angle: 'x', speech_detected: 1 },
      imu: { accelerometer: 'x' },
    };
    const read = readFullState(hostile);
    expect(read).toEqual({
      ok: true,
      state: {
        control_mode: null,
        head_pose: GOOD.head_pose,
        head_joints: null,
        body_yaw: null,
        antennas_position: null,
        timestamp: '',
        passive_joints: null,
        doa: null,
        imu: { accelerometer: 'x' },
      },
    });
    for (const variant of [
      hostile,
      { ...hostile, antennas_position: [1, 2, 3], body_yaw: JSON.parse('1e999') as number, doa: 5 },
    ]) {
      const result = readFullState(variant);
      if (!result.ok) throw new Error(result.reason);
      const feed = {
        sample: { state: result.state, receivedAt: 0 },
        presence: 'connected',
        hz: 10,
        status: undefined,
        problems: {},
      };
      const state = buildRobotState(
        feed as unknown as FeedSnapshot,
        { simulated: false, system: {} as never, services: {} },
        0,
      );
      expect(state?.motorMode).toBeNull();
      expect(state?.doa).toBeUndefined();
      expect(state?.imu).toBeUndefined();
      expect(
        numbersIn({ head: state?.head, bodyYaw: state?.bodyYaw, antennas: state?.antennas }).every(Number.isFinite),
      ).toBe(true);
    }
  });
});
