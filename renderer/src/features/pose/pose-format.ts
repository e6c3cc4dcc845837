/**
 * Pose numbers as the operator reads them: always signed, fixed decimals, a true minus sign, so
 * columns line up in a tabular font and a value crossing zero does not make the row jump.
 */
import type { MotorMode } from '../../../../server/contract/index.ts';

const MINUS = '\u2212';
const DASH = '—';
/** Takes a digit's width, so an unsigned zero lines up with signed values. */
const FIGURE_SPACE = '\u2007';

export function formatSigned(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const text = Math.abs(value).toFixed(digits);
  // -0.04 rounds to "0.0": show it unsigned instead of as "−0.0".
  if (Number(text) === 0) return `${FIGURE_SPACE}${text}`;
  return `${value < 0 ? MINUS : '+'}${text}`;
}

export function formatDegrees(value: number | null | undefined): string {
  const text = formatSigned(value, 1);
  return text === DASH ? text : `${text}°`;
}

export function formatMillimetres(value: number | null | undefined): string {
  const text = formatSigned(value, 1);
  return text === DASH ? text : `${text} mm`;
}

const MOTOR_MODE_LABEL: Readonly<Record<MotorMode, string>> = Object.freeze({
  enabled: 'Torque on',
  disabled: 'Torque off',
  gravity_compensation: 'Gravity comp.',
});

export function motorModeLabel(mode: MotorMode | null | undefined): string {
  return mode ? MOTOR_MODE_LABEL[mode] : 'Unknown';
}
