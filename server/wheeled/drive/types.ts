/**
 * The drive backend interface: what the wheeled server needs from a wheeled base,
 * whether simulated (sim-base.ts) or a real rover behind HTTP (http-rover.ts). Commands are
 * normalised (-1..1) and already scaled by the speed preset; every command carries its own
 * deadline, so the base stops by itself when the frames stop coming (the frame watchdog).
 */
import type { CameraSource } from '../../camera/frame.ts';

export interface DriveCommand {
  /** Forward (+) or backward (-), share of the base's top speed, -1..1. */
  linear: number;
  /** Counter-clockwise, i.e. left (+), or clockwise (-), share of the top turn rate, -1..1. */
  angular: number;
}

/** Metres in the odometry frame; heading in radians counter-clockwise from +x. */
export interface BasePose {
  x: number;
  y: number;
  heading: number;
}

export interface BaseTelemetry {
  pose: BasePose;
  /** m/s forward. */
  linear: number;
  /** rad/s counter-clockwise. */
  angular: number;
  /** Wheel surface speeds, m/s, when the base reports them. */
  wheels: { left: number; right: number } | null;
  /** Percent, when the base reports it. */
  battery: number | null;
  /** Epoch ms the values refer to. */
  at: number;
}

export type BackendPresence = 'connecting' | 'connected' | 'down';

export interface DriveBackend {
  readonly kind: 'sim' | 'http';
  readonly simulated: boolean;
  /** Top speeds at full command, for the dashboard's readouts. */
  readonly limits: { maxLinear: number; maxAngular: number };
  start(): Promise<void>;
  close(): Promise<void>;
  /** Drives with this command until `untilMs` (epoch ms), then stops by itself. */
  drive(command: DriveCommand, untilMs: number): void;
  /** Stops at once. */
  stop(): void;
  /** Makes the current position the odometry origin (x = y = 0, heading 0). */
  resetOdometry(): void;
  telemetry(): BaseTelemetry | undefined;
  presence(): { state: BackendPresence; problem: string | null };
  /** The base's camera, or null when it has none (the dashboard then says so). */
  camera(): CameraSource | null;
}
