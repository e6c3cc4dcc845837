/**
 * The fine-position sliders: height, roll, body yaw and each antenna. Each sends one request on
 * release. Head fields of `look` form an absolute pose (omitted ones mean neutral), so moving
 * the height or the roll sends the rest of the current head pose along with it.
 */
import type { RobotState } from '../../../../server/contract/index.ts';
import type { LookInput } from '../../../../server/contract/index.ts';
import { SAFE_RANGE } from './joystick-math.ts';

export type SliderKey = 'z' | 'roll' | 'bodyYaw' | 'antennaRight' | 'antennaLeft';

export interface SliderSpec {
  key: SliderKey;
  label: string;
  unit: '°' | 'mm';
  min: number;
  max: number;
  step: number;
}

const spec = (key: SliderKey, label: string, unit: '°' | 'mm', [min, max]: readonly [number, number], step: number) => ({ key, label, unit, min, max, step });

export const SLIDERS: readonly SliderSpec[] = [
  spec('z', 'Set height', 'mm', SAFE_RANGE.z, 1),
  spec('roll', 'Set roll', '°', SAFE_RANGE.roll, 1),
  spec('bodyYaw', 'Set body yaw', '°', SAFE_RANGE.bodyYaw, 5),
  spec('antennaRight', 'Set right antenna', '°', SAFE_RANGE.antenna, 5),
  spec('antennaLeft', 'Set left antenna', '°', SAFE_RANGE.antenna, 5),
];

type PoseState = Pick<RobotState, 'head' | 'bodyYaw' | 'antennas'>;

/** The slider's value in the robot state now (rounded to its step), or null without state. */
export function sliderValue(key: SliderKey, state: PoseState | null): number | null {
  if (!state) return null;
  const raw = {
    z: state.head.z,
    roll: state.head.roll,
    bodyYaw: state.bodyYaw,
    antennaRight: state.antennas.right,
    antennaLeft: state.antennas.left,
  }[key];
  const step = SLIDERS.find((s) => s.key === key)?.step ?? 1;
  return Math.round(raw / step) * step;
}

export type SliderRequest = { route: 'look'; body: LookInput } | { route: 'antennas'; right: number; left: number };

/** Slow enough to watch, quick enough not to wait. */
const SLIDER_MOVE_SECONDS = 0.8;

export function sliderRequest(key: SliderKey, value: number, state: PoseState | null): SliderRequest {
  const head = state?.head ?? { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 };
  const antennas = state?.antennas ?? { right: 0, left: 0 };
  const pose = { yaw: head.yaw, pitch: head.pitch, roll: head.roll, x: head.x, y: head.y, z: head.z };
  switch (key) {
    case 'z':
      return { route: 'look', body: { ...pose, z: value, duration: SLIDER_MOVE_SECONDS } };
    case 'roll':
      return { route: 'look', body: { ...pose, roll: value, duration: SLIDER_MOVE_SECONDS } };
    case 'bodyYaw':
      // Only body_yaw: with no head field given the head keeps its pose.
      return { route: 'look', body: { body_yaw: value, duration: 1.5 } };
    case 'antennaRight':
      return { route: 'antennas', right: value, left: antennas.left };
    case 'antennaLeft':
      return { route: 'antennas', right: antennas.right, left: value };
  }
}

/** "+12°", "−5 mm": signed, with a real minus sign. */
export function formatSliderValue(value: number | null, unit: '°' | 'mm'): string {
  if (value === null || !Number.isFinite(value)) return `—${unit === 'mm' ? ' mm' : '°'}`;
  const rounded = Math.round(value);
  const sign = rounded > 0 ? '+' : rounded < 0 ? '\u2212' : '';
  return `${sign}${Math.abs(rounded)}${unit === 'mm' ? ' mm' : '°'}`;
}
