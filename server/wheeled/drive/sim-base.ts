/**
 * The simulated differential-drive base, the wheeled server's default backend. Motion is integrated
 * lazily and exactly: the pose is advanced to "now" whenever it is read or the command
 * changes, and never past the running frame's deadline. So the frame watchdog is exact even
 * when the timer that zeroes the wheels fires late: no read can ever see the base move past
 * the deadline of the last frame.
 */
import type { CameraSource } from '../../camera/frame.ts';
import { bodyVelocity, integrate, SIM_LIMITS, type BaseLimits, type BodyVelocity } from './kinematics.ts';
import { createSimCamera } from './sim-camera.ts';
import type { BasePose, BaseTelemetry, DriveBackend, DriveCommand } from './types.ts';

const STILL: BodyVelocity = Object.freeze({ v: 0, w: 0, left: 0, right: 0 });

export interface SimBaseOptions {
  limits?: BaseLimits;
  now?: () => number;
  /** Frames per second of the simulated camera; 0 leaves the base without a camera. */
  cameraFps?: number;
}

export interface SimBase extends DriveBackend {
  /** Puts the base somewhere (tests, and the odometry origin at start). */
  place(pose: BasePose): void;
}

export function createSimBase(options: SimBaseOptions = {}): SimBase {
  const limits = options.limits ?? SIM_LIMITS;
  const now = options.now ?? Date.now;
  let pose: BasePose = { x: 0, y: 0, heading: 0 };
  let velocity: BodyVelocity = STILL;
  let lastAt = now();
  let deadline = 0;
  let timer: NodeJS.Timeout | undefined;

  /** Advances the pose to `t`, stopping at the deadline if it has passed. */
  const advance = (t: number) => {
    if (velocity !== STILL && t >= deadline) {
      pose = integrate(pose, velocity.v, velocity.w, (deadline - lastAt) / 1000);
      velocity = STILL;
      lastAt = t;
      return;
    }
    pose = integrate(pose, velocity.v, velocity.w, (t - lastAt) / 1000);
    lastAt = t;
  };
  const halt = () => {
    clearTimeout(timer);
    timer = undefined;
    advance(now());
    velocity = STILL;
  };
  const telemetry = (): BaseTelemetry => {
    const t = now();
    advance(t);
    return {
      pose: { ...pose },
      linear: velocity.v,
      angular: velocity.w,
      wheels: { left: velocity.left, right: velocity.right },
      battery: null,
      at: t,
    };
  };
  const camera: CameraSource | null =
    options.cameraFps === 0 ? null : createSimCamera({ telemetry, fps: options.cameraFps ?? 5, now });

  return {
    kind: 'sim',
    simulated: true,
    limits: { maxLinear: limits.maxLinear, maxAngular: limits.maxAngular },
    start: async () => undefined,
    async close() {
      halt();
    },
    drive(command: DriveCommand, untilMs: number) {
      const t = now();
      advance(t);
      clearTimeout(timer);
      if (untilMs <= t) {
        velocity = STILL;
        return;
      }
      velocity = bodyVelocity(command, limits);
      deadline = untilMs;
      // The wheels are zeroed when the frame runs out; reads between now and then stay exact.
      timer = setTimeout(halt, untilMs - t);
      timer.unref();
    },
    stop: halt,
    telemetry,
    presence: () => ({ state: 'connected', problem: null }),
    camera: () => camera,
    resetOdometry() {
      halt();
      pose = { x: 0, y: 0, heading: 0 };
    },
    place(next) {
      halt();
      pose = { ...next };
    },
  };
}
