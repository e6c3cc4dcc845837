import { describe, expect, it } from 'vitest';
import { toneColor } from './tone.ts';

describe('toneColor', () => {
  it.each([
    ['ok', 'var(--ok)'],
    ['warn', 'var(--warn)'],
    ['bad', 'var(--bad)'],
    ['idle', 'var(--idle)'],
  ] as const)('%s is drawn with %s', (tone, colour) => {
    expect(toneColor(tone)).toBe(colour);
  });
});
