import { describe, expect, it } from 'vitest';
import { formatAge, formatDegrees, formatDelay, formatFps } from './camera-format.ts';

describe('camera readouts', () => {
  it('formats ages from tenths to minutes', () => {
    expect(formatAge(null)).toBe('—');
    expect(formatAge(66)).toBe('0.1 s');
    expect(formatAge(-5)).toBe('0.0 s');
    expect(formatAge(45_400)).toBe('45 s');
    expect(formatAge(600_000)).toBe('10 min');
  });

  it('formats rates and delays', () => {
    expect(formatFps(14.93)).toBe('14.9 fps');
    expect(formatFps(null)).toBe('—');
    expect(formatDelay(12.4)).toBe('12 ms');
    expect(formatDelay(1520)).toBe('1.5 s');
    expect(formatDelay(Number.NaN)).toBe('—');
  });

  it('formats signed degrees with a true minus', () => {
    expect(formatDegrees(12.46)).toBe('+12.5°');
    expect(formatDegrees(-3)).toBe('\u22123.0°');
    expect(formatDegrees(-0.01)).toBe('+0.0°');
  });
});
