/**
 * Builds the cockpit's RobotState (degrees, millimetres) from the feed's latest sample. Called
 * once per broadcast tick and shared by every viewer, never once per viewer.
 */
import type {
  DaemonInfo,
  DaemonPhysics,
  DoaReading,
  ImuReading,
  MotorMode,
  RobotState,
  ServiceState,
  SystemStats,
} from '../contract/state.ts';
import { round, toDeg, toHeadPose } from './units.ts';
import type { FeedSnapshot } from './state-feed.ts';
import type { DaemonStatus, WireDoa } from './wire.ts';

export interface StateExtras {
  simulated: boolean;
  system: SystemStats;
  services: Record<string, ServiceState>;
  /** Absent while the daemon's face tracker is unavailable (no camera). */
  tracking?: unknown;
}

/** Returns undefined until the daemon has sent a first sample. */
export function buildRobotState(feed: FeedSnapshot, extras: StateExtras, now: number): RobotState | undefined {
  const sample = feed.sample;
  if (!sample) return undefined;
  const s = sample.state;
  const antennas = s.antennas_position ?? [0, 0];
  const state: RobotState = {
    timestamp: s.timestamp,
    ageMs: Math.max(0, now - sample.receivedAt),
    head: s.head_pose ? toHeadPose(s.head_pose) : { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 },
    bodyYaw: round(toDeg(s.body_yaw ?? 0), 2),
    antennas: { right: round(toDeg(antennas[0]), 2), left: round(toDeg(antennas[1]), 2) },
    motorMode: (s.control_mode as MotorMode | null) ?? null,
    loopHz: daemonLoopHz(feed),
    upstreamHz: feed.hz,
    daemon: daemonInfo(feed, extras.simulated),
    system: extras.system,
    services: extras.services,
  };
  if (feed.presence !== 'connected') state.stale = true;
  if (s.doa) state.doa = toDoa(s.doa);
  const imu = toImu(s.imu);
  if (imu) state.imu = imu;
  if (extras.tracking !== undefined) state.tracking = extras.tracking;
  return state;
}

/** `backend_status.control_loop_stats.mean_control_loop_frequency`: only the real-motor backend sends it. */
export function daemonLoopHz(feed: Pick<FeedSnapshot, 'status'>): number | null {
  const hz = feed.status?.backend_status?.control_loop_stats?.mean_control_loop_frequency;
  return typeof hz === 'number' && Number.isFinite(hz) ? round(hz, 1) : null;
}

/** The daemon's ImuData (1.10 final): accelerometer, gyroscope, quaternion, temperature. */
export function toImu(raw: unknown): ImuReading | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const nums = (v: unknown) => (Array.isArray(v) && v.every((n) => typeof n === 'number') ? (v as number[]) : null);
  const accelerometer = nums(r['accelerometer']);
  const gyroscope = nums(r['gyroscope']);
  const quaternion = nums(r['quaternion']);
  if (!accelerometer || !gyroscope || !quaternion) return undefined;
  return {
    accelerometer,
    gyroscope,
    quaternion,
    temperature: typeof r['temperature'] === 'number' ? r['temperature'] : null,
  };
}

/** The daemon's own state as last read; unknown (null) while it does not answer, whatever it said before. */
export function daemonStateOf(feed: Pick<FeedSnapshot, 'status' | 'problems'>): string | null {
  return 'daemon:unreachable' in feed.problems ? null : (feed.status?.state ?? null);
}

export function daemonInfo(feed: FeedSnapshot, simulated: boolean): DaemonInfo {
  return {
    presence: feed.presence,
    state: daemonStateOf(feed),
    version: feed.status?.version ?? null,
    robotName: feed.status?.robot_name ?? null,
    simulated,
    physics: daemonPhysics(feed.status),
  };
}

/** What the daemon runs instead of a robot, from its status flags; null for a robot or no status. */
export function daemonPhysics(status: DaemonStatus | undefined): DaemonPhysics {
  if (status?.simulation_enabled === true) return 'mujoco';
  if (status?.mockup_sim_enabled === true) return 'mockup';
  return null;
}

/**
 * The daemon's angle runs 0 = left, π/2 = front, π = right (docs/daemon.md, "State"). People read a
 * bearing from straight ahead, positive to the robot's left.
 */
export function toDoa(doa: WireDoa): DoaReading {
  return { bearing: round(toDeg(Math.PI / 2 - doa.angle), 1), speech: doa.speech_detected };
}
