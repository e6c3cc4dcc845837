/**
 * Differential-drive kinematics for the simulated base: a normalised command becomes a body
 * velocity within the speed limits (neither wheel faster than its top speed, so a full-speed
 * turn while driving slows both, as a real base does), and a pose moves along the exact arc a
 * constant velocity draws, so a frame of any length lands where a real base would.
 */
import type { BasePose, DriveCommand } from './types.ts';

export interface BaseLimits {
  /** m/s at linear 1. */
  maxLinear: number;
  /** rad/s at angular 1. */
  maxAngular: number;
  /** Top surface speed of one wheel, m/s. */
  maxWheel: number;
  /** Distance between the wheels, m. */
  trackWidth: number;
}

/** A small rover: 0.8 m/s, about 140°/s on the spot. */
export const SIM_LIMITS: Readonly<BaseLimits> = Object.freeze({
  maxLinear: 0.8,
  maxAngular: 2.4,
  maxWheel: 0.8,
  trackWidth: 0.32,
});

export interface BodyVelocity {
  /** m/s */
  v: number;
  /** rad/s */
  w: number;
  left: number;
  right: number;
}

export function bodyVelocity(command: DriveCommand, limits: BaseLimits): BodyVelocity {
  let v = command.linear * limits.maxLinear;
  let w = command.angular * limits.maxAngular;
  const half = limits.trackWidth / 2;
  const peak = Math.max(Math.abs(v - w * half), Math.abs(v + w * half));
  if (peak > limits.maxWheel) {
    const scale = limits.maxWheel / peak;
    v *= scale;
    w *= scale;
  }
  return { v, w, left: v - w * half, right: v + w * half };
}

/** Wraps an angle into (-π, π]. */
export function wrapAngle(rad: number): number {
  const turns = Math.round(rad / (2 * Math.PI));
  let a = rad - turns * 2 * Math.PI;
  if (a <= -Math.PI) a += 2 * Math.PI;
  return a;
}

/** The pose after `seconds` at constant (v, w): a straight line, or an arc of radius v/w. */
export function integrate(pose: BasePose, v: number, w: number, seconds: number): BasePose {
  if (seconds <= 0 || (v === 0 && w === 0)) return pose;
  const heading = pose.heading + w * seconds;
  if (Math.abs(w) < 1e-9) {
    return {
      x: pose.x + v * seconds * Math.cos(pose.heading),
      y: pose.y + v * seconds * Math.sin(pose.heading),
      heading: pose.heading,
    };
  }
  const r = v / w;
  return {
    x: pose.x + r * (Math.sin(heading) - Math.sin(pose.heading)),
    y: pose.y - r * (Math.cos(heading) - Math.cos(pose.heading)),
    heading: wrapAngle(heading),
  };
}
