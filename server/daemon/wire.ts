/**
 * The daemon's own wire shapes (docs/daemon.md, "The protocol as the cockpit uses it"): radians, metres, snake_case.
 * Only server/daemon sees these; everything above it gets human units.
 */

export interface XyzRpy {
  x?: number;
  y?: number;
  z?: number;
  roll?: number;
  pitch?: number;
  yaw?: number;
}

export interface PoseMatrix {
  m: number[];
}

export type WirePose = XyzRpy | PoseMatrix;

/** GET /api/state/full and each /api/state/ws/full frame; unrequested members are null. */
export interface FullState {
  control_mode: 'enabled' | 'disabled' | 'gravity_compensation' | null;
  head_pose: WirePose | null;
  head_joints: number[] | null;
  body_yaw: number | null;
  antennas_position: [number, number] | null;
  timestamp: string;
  passive_joints: number[] | null;
  doa: WireDoa | null;
  /** From 1.10.0 final: null unless `with_imu=true` on a robot with an IMU (Wireless). */
  imu?: unknown;
}

/** 0 = left, π/2 = front, π = right (docs/daemon.md, "State"). */
export interface WireDoa {
  angle: number;
  speech_detected: boolean;
}

export interface FaceTarget {
  detected: boolean;
  x: number | null;
  y: number | null;
  roll: number | null;
  ts: number | null;
}

export interface DaemonStatus {
  type: 'daemon_status';
  robot_name: string;
  state: 'not_initialized' | 'starting' | 'running' | 'stopping' | 'stopped' | 'error';
  wireless_version: boolean;
  simulation_enabled: boolean | null;
  mockup_sim_enabled: boolean | null;
  no_media: boolean;
  media_released: boolean;
  camera_specs_name: string;
  backend_status: {
    motor_control_mode?: string;
    error?: string | null;
    control_loop_stats?: { mean_control_loop_frequency?: number };
  } | null;
  error: string | null;
  version: string;
  face_target?: FaceTarget;
}

/** `GET /api/daemon/robot-app-lock-status` (1.13): who holds the managed-app slot. */
export interface AppLockStatus {
  state: 'free' | 'local_app' | 'remote_session';
  /** The app's name for `local_app`; `"remote"` for a remote session; null when free. */
  holder_name: string | null;
}

export interface GotoRequest {
  head_pose?: XyzRpy | null;
  antennas?: [number, number] | null;
  body_yaw?: number | null;
  duration: number;
  interpolation?: 'linear' | 'minjerk' | 'ease_in_out' | 'cartoon';
}

export interface FullBodyTarget {
  target_head_pose?: XyzRpy;
  target_antennas?: [number, number];
  target_body_yaw?: number;
}

export interface MoveEvent {
  type: 'move_started' | 'move_completed' | 'move_failed' | 'move_cancelled';
  uuid: string;
  details: string;
}
