/**
 * The robot state object of GET /api/state and the `state` frame on /ws, in human units:
 * degrees and millimetres. The daemon speaks radians and metres; server/daemon converts once.
 */

export type MotorMode = 'enabled' | 'disabled' | 'gravity_compensation';

/** Head pose relative to the neutral pose: x forward, y left, z up (mm); extrinsic xyz angles (deg). */
export interface HeadPose {
  x: number;
  y: number;
  z: number;
  roll: number;
  pitch: number;
  yaw: number;
}

export interface Antennas {
  right: number;
  left: number;
}

export type Presence = 'connecting' | 'connected' | 'reconnecting' | 'down';

export interface DaemonInfo {
  presence: Presence;
  /** The daemon's own lifecycle state (`running`, `stopped`, ...), null when unknown. */
  state: string | null;
  version: string | null;
  robotName: string | null;
  /** True when the cockpit talks to its built-in simulated robot. */
  simulated: boolean;
  /**
   * What a daemon with no robot runs instead, as its status says: `mujoco` (physics, `--sim`) or
   * `mockup` (`--mockup-sim`); null for a robot, or while unknown. docs/daemon.md, "Running it with no robot".
   */
  physics: DaemonPhysics;
}

export type DaemonPhysics = 'mujoco' | 'mockup' | null;

export interface SystemStats {
  /** Seconds since the cockpit started. */
  uptime: number;
  /** Cockpit process resident memory, MiB. */
  rssMb: number;
  /** 1-minute load average of the host. */
  load: number;
}

export interface ServiceState {
  state: 'running' | 'paused' | 'stopped' | 'off';
  detail?: string;
}

export interface DoaReading {
  /** Bearing in degrees, 0 = straight ahead, positive to the robot's left. */
  bearing: number;
  speech: boolean;
}

/** The daemon's IMU reading (Wireless robots only), as it reports it. */
export interface ImuReading {
  /** m/s² */
  accelerometer: number[];
  /** rad/s */
  gyroscope: number[];
  /** w, x, y, z */
  quaternion: number[];
  /** °C; null when the daemon sent none. */
  temperature: number | null;
}

export interface RobotState {
  /** ISO time of the daemon sample this state comes from. */
  timestamp: string;
  /** Milliseconds since that sample reached the cockpit. */
  ageMs: number;
  /**
   * Present (true) only while the daemon is not streaming (reconnecting, stopped, unreachable):
   * this is then the last known state, `ageMs` old.
   */
  stale?: true;
  head: HeadPose;
  bodyYaw: number;
  antennas: Antennas;
  motorMode: MotorMode | null;
  /**
   * The daemon's own control-loop frequency as it reports it (`backend_status.control_loop_stats`
   * of its status, real motors only); null when it reports none (mockup and MuJoCo backends).
   */
  loopHz: number | null;
  /** The cockpit's measured rate of the daemon's state stream, frames per second. */
  upstreamHz: number;
  daemon: DaemonInfo;
  system: SystemStats;
  services: Record<string, ServiceState>;
  /** Face tracking, present while the daemon's face tracker is available. */
  tracking?: unknown;
  /** Present only when the daemon sends a direction-of-arrival reading (it has a microphone array). */
  doa?: DoaReading;
  /** Present only when the daemon sends an IMU reading. */
  imu?: ImuReading;
}
