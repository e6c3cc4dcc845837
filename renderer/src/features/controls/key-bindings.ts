/**
 * The keyboard joystick: arrows or WASD turn and tilt the head, Shift + left/right rolls it,
 * Alt (Option) + up/down raises and lowers it. Letters are read by their physical key (`code`),
 * so other layouts and Option-modified characters on a Mac still drive.
 */
import { AXES, ZERO_RATES, type Axis, type Rates } from './joystick-math.ts';

export interface KeyLike {
  key: string;
  code: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

export interface KeyDrive {
  axis: Axis;
  sign: 1 | -1;
}

type Direction = 'left' | 'right' | 'up' | 'down';

const DIRECTION: Readonly<Record<string, Direction>> = {
  ArrowLeft: 'left',
  KeyA: 'left',
  ArrowRight: 'right',
  KeyD: 'right',
  ArrowUp: 'up',
  KeyW: 'up',
  ArrowDown: 'down',
  KeyS: 'down',
};

/** What a key press drives, or null for keys that are not the joystick's (and browser shortcuts). */
export function keyDrive(event: KeyLike): KeyDrive | null {
  if (event.ctrlKey || event.metaKey) return null;
  const direction = DIRECTION[event.code] ?? DIRECTION[event.key];
  if (!direction) return null;
  if (direction === 'left' || direction === 'right') {
    const toLeft = direction === 'left';
    // Shift tilts: left lowers the robot's left ear (negative roll). Plain turns: left is +yaw.
    if (event.shiftKey) return { axis: 'roll', sign: toLeft ? -1 : 1 };
    return { axis: 'yaw', sign: toLeft ? 1 : -1 };
  }
  const up = direction === 'up';
  if (event.altKey) return { axis: 'z', sign: up ? 1 : -1 };
  // Positive pitch is nose down, so "up" looks up with a negative pitch.
  return { axis: 'pitch', sign: up ? -1 : 1 };
}

/** The rates of the keys held now; opposite keys cancel. */
export function keyRates(held: Iterable<KeyDrive>): Rates {
  const rates = { ...ZERO_RATES };
  for (const { axis, sign } of held) rates[axis] += sign;
  for (const axis of AXES) rates[axis] = Math.max(-1, Math.min(1, rates[axis]));
  return rates;
}

export interface ElementLike {
  tagName: string;
  isContentEditable?: boolean;
  getAttribute(name: string): string | null;
}

/** Roles whose widgets use arrow keys themselves. */
const ARROW_ROLES = new Set(['slider', 'spinbutton', 'textbox', 'searchbox', 'combobox', 'listbox', 'menu', 'radiogroup', 'tablist']);

/** Inputs that take no arrow or letter keys: a focused checkbox must not silence the joystick. */
const KEYLESS_INPUTS = new Set(['checkbox', 'button', 'submit', 'reset', 'color', 'file', 'image']);

/** True when keys belong to what has focus (typing, a slider, a list): the joystick keeps quiet. */
export function isTypingTarget(element: ElementLike | null): boolean {
  if (!element) return false;
  const tag = element.tagName.toUpperCase();
  if (tag === 'INPUT') return !KEYLESS_INPUTS.has((element.getAttribute('type') ?? 'text').toLowerCase());
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (element.isContentEditable) return true;
  const role = element.getAttribute('role');
  return role !== null && ARROW_ROLES.has(role);
}
