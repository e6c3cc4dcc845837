import { describe, expect, it } from 'vitest';
import { formatAge, formatCountdown, formatHz } from './link-format.ts';

describe('formatHz', () => {
  it.each([
    [15, '15.0 Hz'],
    [14.96, '15.0 Hz'],
    [0, '0.0 Hz'],
    [-1, '0.0 Hz'],
    [null, '— Hz'],
    [Number.NaN, '— Hz'],
  ])('%s → %s', (hz, text) => {
    expect(formatHz(hz)).toBe(text);
  });
});

describe('formatAge', () => {
  it.each([
    [0, '0 ms'],
    [42.4, '42 ms'],
    [999, '999 ms'],
    [1000, '1.0 s'],
    [12_345, '12.3 s'],
    [125_000, '2 min'],
    [-5, '0 ms'],
    [undefined, '— ms'],
  ])('%s → %s', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });
});

describe('formatCountdown', () => {
  it.each([
    [2100, 'in 3 s'],
    [1000, 'in 1 s'],
    [0, 'now'],
    [-400, 'now'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatCountdown(ms)).toBe(text);
  });
});
