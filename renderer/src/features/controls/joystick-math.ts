/**
 * The arithmetic of hold-to-move: every input (keys, the pad, a gamepad) gives a rate per axis in
 * −1…1, the rates add up, and the absolute head target moves by rate × speed while held. The
 * cockpit takes absolute targets (`{type: "joystick", yaw, pitch, roll, z}` on /ws).
 */

export type Axis = 'yaw' | 'pitch' | 'roll' | 'z';
export const AXES: readonly Axis[] = ['yaw', 'pitch', 'roll', 'z'];

/** Degrees for yaw, pitch and roll; millimetres for z. Positive yaw turns to the robot's left, positive pitch looks down. */
export type JoystickTarget = Record<Axis, number>;
export type Rates = Record<Axis, number>;

/**
 * The cockpit's safe ranges (server/motion/README-control.md, "Safe ranges"). The server clamps
 * whatever it gets; clamping here too keeps a held key from winding the target far past the stop,
 * which would make the head lag behind when the key turns back.
 */
export const SAFE_RANGE: Readonly<Record<Axis | 'bodyYaw' | 'antenna', readonly [number, number]>> = {
  yaw: [-60, 60],
  pitch: [-30, 25],
  roll: [-25, 25],
  z: [-30, 20],
  bodyYaw: [-150, 150],
  antenna: [-170, 170],
};

/** Full-rate speeds per second: brisk enough to look around, slow enough to aim. */
export const SPEED: Readonly<Rates> = { yaw: 45, pitch: 30, roll: 30, z: 25 };

export const ZERO_RATES: Readonly<Rates> = Object.freeze({ yaw: 0, pitch: 0, roll: 0, z: 0 });

export function clamp(value: number, [low, high]: readonly [number, number]): number {
  return Math.min(high, Math.max(low, value));
}

export function isIdle(rates: Rates): boolean {
  return AXES.every((axis) => rates[axis] === 0);
}

/** Adds the rates of every input, each axis capped to −1…1. */
export function combineRates(list: Iterable<Rates>): Rates {
  const sum = { ...ZERO_RATES };
  for (const rates of list) for (const axis of AXES) sum[axis] += rates[axis];
  for (const axis of AXES) sum[axis] = clamp(sum[axis], [-1, 1]);
  return sum;
}

/** The target after `dtMs` of holding `rates`, kept inside the safe ranges. */
export function stepTarget(target: JoystickTarget, rates: Rates, dtMs: number): JoystickTarget {
  const next = { ...target };
  for (const axis of AXES) {
    next[axis] = round2(clamp(target[axis] + (rates[axis] * SPEED[axis] * dtMs) / 1000, SAFE_RANGE[axis]));
  }
  return next;
}

/** Drops the small wobble of a stick at rest, then rescales so the edge of the dead zone is 0. */
export function deadzone(value: number, zone = 0.15): number {
  const magnitude = Math.abs(value);
  if (!Number.isFinite(value) || magnitude <= zone) return 0;
  return (Math.sign(value) * Math.min(1, (magnitude - zone) / (1 - zone)));
}

/**
 * Rates from a drag on the pad: the offset from the pad's centre over its radius, kept inside
 * the unit circle. Right turns the head to the robot's right (negative yaw); down looks down.
 */
export function padRates(dx: number, dy: number, radius: number): Rates {
  if (radius <= 0) return { ...ZERO_RATES };
  let x = dx / radius;
  let y = dy / radius;
  const length = Math.hypot(x, y);
  if (length > 1) {
    x /= length;
    y /= length;
  }
  return { ...ZERO_RATES, yaw: round2(deadzone(-x, 0.08)), pitch: round2(deadzone(y, 0.08)) };
}

/**
 * Rates from a standard-mapping gamepad: left stick yaw and pitch, right stick roll (x) and
 * height (y, up raises). Axes beyond the array count as centred.
 */
export function stickRates(axes: readonly number[], zone = 0.15): Rates {
  const at = (i: number) => deadzone(axes[i] ?? 0, zone);
  return { yaw: round2(-at(0)), pitch: round2(at(1)), roll: round2(at(2)), z: round2(-at(3)) };
}

function round2(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? 0 : rounded;
}
