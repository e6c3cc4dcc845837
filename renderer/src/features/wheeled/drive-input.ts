/**
 * Every way of driving the base gives a drive in −1…1 per axis: `linear` forward +, `angular`
 * counter-clockwise (left) + (server/wheeled/README-wheeled.md, "Driving"). Keys, the pointer pad
 * and a gamepad each give one; they add up, capped, and a drive of zero on both axes means
 * "not driving": the dashboard then sends a stop instead of frames.
 */
import { deadzone } from '../controls/joystick-math.ts';

export interface Drive {
  linear: number;
  angular: number;
}

export const STILL: Readonly<Drive> = Object.freeze({ linear: 0, angular: 0 });

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export type DriveKey = 'forward' | 'back' | 'left' | 'right';

const KEYS: Readonly<Record<string, DriveKey>> = {
  ArrowUp: 'forward',
  KeyW: 'forward',
  ArrowDown: 'back',
  KeyS: 'back',
  ArrowLeft: 'left',
  KeyA: 'left',
  ArrowRight: 'right',
  KeyD: 'right',
};

/** The drive key of a key event (by physical key, so other layouts drive too), or null. */
export function driveKey(event: KeyLike): DriveKey | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  return KEYS[event.code] ?? KEYS[event.key] ?? null;
}

/** The drive of the keys held now; opposite keys cancel. */
export function keysDrive(held: Iterable<DriveKey>): Drive {
  const set = new Set(held);
  const linear = (set.has('forward') ? 1 : 0) - (set.has('back') ? 1 : 0);
  const angular = (set.has('left') ? 1 : 0) - (set.has('right') ? 1 : 0);
  return { linear, angular };
}

const round2 = (value: number) => {
  const r = Math.round(value * 100) / 100;
  return r === 0 ? 0 : r;
};

/** A drag on the pad: up drives forward, right turns right (clockwise); kept in the unit circle. */
export function padDrive(dx: number, dy: number, radius: number): Drive {
  if (radius <= 0) return { ...STILL };
  let x = dx / radius;
  let y = dy / radius;
  const length = Math.hypot(x, y);
  if (length > 1) {
    x /= length;
    y /= length;
  }
  return { linear: round2(deadzone(-y, 0.08)), angular: round2(deadzone(-x, 0.08)) };
}

/** A standard-mapping gamepad: left stick up drives forward, left stick right turns right. */
export function stickDrive(axes: readonly number[], zone = 0.15): Drive {
  return { linear: round2(-deadzone(axes[1] ?? 0, zone)), angular: round2(-deadzone(axes[0] ?? 0, zone)) };
}

export function combineDrives(list: Iterable<Drive>): Drive {
  let linear = 0;
  let angular = 0;
  for (const d of list) {
    linear += d.linear;
    angular += d.angular;
  }
  return { linear: Math.max(-1, Math.min(1, linear)), angular: Math.max(-1, Math.min(1, angular)) };
}

export function isStill(drive: Drive): boolean {
  return drive.linear === 0 && drive.angular === 0;
}
