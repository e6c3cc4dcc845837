import { describe, expect, it } from 'vitest';
import { formatDegrees, formatMillimetres, formatSigned, motorModeLabel } from './pose-format.ts';

describe('formatSigned', () => {
  it.each([
    [12.345, 1, '+12.3'],
    [-4, 1, '\u22124.0'],
    [0, 1, '\u20070.0'],
    [-0.04, 1, '\u20070.0'],
    [0.05, 1, '+0.1'],
    [179.99, 0, '+180'],
    [null, 1, '—'],
    [Number.POSITIVE_INFINITY, 1, '—'],
  ])('%s with %i digits → %j', (value, digits, text) => {
    expect(formatSigned(value, digits)).toBe(text);
  });

  it('gives equal widths either side of zero', () => {
    expect(formatSigned(3.2)).toHaveLength(formatSigned(-3.2).length);
    expect(formatSigned(0)).toHaveLength(formatSigned(-3.2).length);
  });
});

describe('formatDegrees and formatMillimetres', () => {
  it.each([
    [formatDegrees(-12.04), '\u221212.0°'],
    [formatDegrees(undefined), '—'],
    [formatMillimetres(3.25), '+3.3 mm'],
    [formatMillimetres(null), '—'],
  ])('%j is %j', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('motorModeLabel', () => {
  it.each([
    ['enabled', 'Torque on'],
    ['disabled', 'Torque off'],
    ['gravity_compensation', 'Gravity comp.'],
    [null, 'Unknown'],
  ] as const)('%s → %s', (mode, label) => {
    expect(motorModeLabel(mode)).toBe(label);
  });
});
