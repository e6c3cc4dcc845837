import { describe, expect, it } from 'vitest';
import { buildRobotState, daemonPhysics, toImu } from './robot-state.ts';
import type { FeedSnapshot } from './state-feed.ts';
import type { DaemonStatus, FullState } from './wire.ts';

const wire = (over: Partial<FullState> = {}): FullState => ({
  control_mode: 'enabled',
  head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 },
  head_joints: null,
  body_yaw: 0,
  antennas_position: [-0.1745, 0.1745],
  timestamp: '2026-11-25T16:48:16.318265Z',
  passive_joints: null,
  doa: null,
  imu: null,
  ...over,
});

const status = (backend: DaemonStatus['backend_status']): DaemonStatus =>
  ({ state: 'running', version: '1.13.0', robot_name: 'reachy_mini', backend_status: backend }) as DaemonStatus;

function feed(over: Partial<FeedSnapshot> = {}, state = wire()): FeedSnapshot {
  return {
    presence: 'connected',
    sample: { state, receivedAt: 10_000 },
    status: status({ motor_control_mode: 'enabled', error: null }),
    hz: 29.7,
    requestedHz: 30,
    streamConnected: true,
    polling: false,
    problems: {},
    lastError: null,
    lastErrorAt: null,
    ...over,
  };
}

const extras = { simulated: false, system: { uptime: 1, rssMb: 1, load: 0 }, services: {} };

describe('robot state from the daemon', () => {
  it('says what a daemon with no robot runs instead, from its status flags, and nothing it does not say', () => {
    const flags = (over: Partial<DaemonStatus>) => ({
      ...status({ motor_control_mode: 'enabled', error: null }),
      ...over,
    });
    // The real daemon 1.13.0 run with --mockup-sim, and with --sim (docs/daemon.md).
    expect(daemonPhysics(flags({ simulation_enabled: false, mockup_sim_enabled: true }))).toBe('mockup');
    expect(daemonPhysics(flags({ simulation_enabled: true, mockup_sim_enabled: false }))).toBe('mujoco');
    expect(daemonPhysics(flags({ simulation_enabled: false, mockup_sim_enabled: false }))).toBeNull();
    // A daemon before the flags, or one that sends them as another type, is not guessed at.
    expect(daemonPhysics(flags({ simulation_enabled: null, mockup_sim_enabled: null }))).toBeNull();
    expect(daemonPhysics(flags({ mockup_sim_enabled: 'true' as unknown as boolean }))).toBeNull();
    expect(daemonPhysics(undefined)).toBeNull();
    const state = buildRobotState(feed({ status: flags({ mockup_sim_enabled: true }) }), extras, 10_040);
    expect(state?.daemon).toMatchObject({ simulated: false, physics: 'mockup' });
  });

  it('a live sample is not stale; doa, imu and tracking are absent when the daemon sends none', () => {
    const s = buildRobotState(feed(), extras, 10_040);
    expect(s).toBeDefined();
    expect(s?.stale).toBeUndefined();
    expect(s?.ageMs).toBe(40);
    expect(s && 'doa' in s).toBe(false);
    expect(s && 'imu' in s).toBe(false);
    expect(s && 'tracking' in s).toBe(false);
  });

  it('during a reconnect the last known state is marked stale with its age', () => {
    for (const presence of ['reconnecting', 'down'] as const) {
      const s = buildRobotState(feed({ presence, hz: 0 }), extras, 17_500);
      expect(s).toMatchObject({ stale: true, ageMs: 7500, upstreamHz: 0 });
    }
    expect(buildRobotState(feed({ sample: undefined }), extras, 1)).toBeUndefined();
  });

  it('loopHz is the control-loop frequency the daemon reports; upstreamHz the cockpit measures', () => {
    const none = buildRobotState(feed(), extras, 10_000);
    expect(none).toMatchObject({ loopHz: null, upstreamHz: 29.7 });
    const real = buildRobotState(
      feed({ status: status({ control_loop_stats: { mean_control_loop_frequency: 49.87 } }) }),
      extras,
      10_000,
    );
    expect(real).toMatchObject({ loopHz: 49.9, upstreamHz: 29.7 });
  });

  it('doa and imu appear when the daemon sends them; tracking when attached', () => {
    const imu = { accelerometer: [0, 0, 9.81], gyroscope: [0, 0, 0], quaternion: [1, 0, 0, 0], temperature: 31.5 };
    const s = buildRobotState(
      feed({}, wire({ doa: { angle: Math.PI / 2, speech_detected: true }, imu })),
      { ...extras, tracking: { enabled: false } },
      10_000,
    );
    expect(s?.doa).toEqual({ bearing: 0, speech: true });
    expect(s?.imu).toEqual(imu);
    expect(s?.tracking).toEqual({ enabled: false });
  });

  it('an IMU reading of the wrong shape is left out', () => {
    expect(toImu({ accelerometer: [1, 2, 3] })).toBeUndefined();
    expect(toImu('x')).toBeUndefined();
    expect(toImu({ accelerometer: [1], gyroscope: [2], quaternion: [1, 0, 0, 0] })?.temperature).toBeNull();
  });
});
