import { describe, expect, it } from 'vitest';
import { combineRates, deadzone, isIdle, padRates, stepTarget, stickRates, ZERO_RATES } from './joystick-math.ts';

const origin = { yaw: 0, pitch: 0, roll: 0, z: 0 };

describe('stepTarget', () => {
  it('moves each axis by rate × speed × time', () => {
    expect(stepTarget(origin, { yaw: 1, pitch: -0.5, roll: 0, z: 1 }, 100)).toEqual({ yaw: 4.5, pitch: -1.5, roll: 0, z: 2.5 });
  });

  it('stops at the safe ranges however long the key is held', () => {
    expect(stepTarget({ yaw: 59, pitch: 24, roll: -24, z: 19 }, { yaw: 1, pitch: 1, roll: -1, z: 1 }, 1000)).toEqual({
      yaw: 60,
      pitch: 25,
      roll: -25,
      z: 20,
    });
  });
});

describe('combineRates', () => {
  it('adds inputs and caps each axis', () => {
    const keys = { ...ZERO_RATES, yaw: 1 };
    const pad = { ...ZERO_RATES, yaw: 0.5, pitch: -0.25 };
    expect(combineRates([keys, pad])).toEqual({ yaw: 1, pitch: -0.25, roll: 0, z: 0 });
    expect(isIdle(combineRates([]))).toBe(true);
    expect(isIdle(combineRates([{ ...ZERO_RATES, yaw: 1 }, { ...ZERO_RATES, yaw: -1 }]))).toBe(true);
  });
});

describe('deadzone', () => {
  it.each([
    [0.1, 0],
    [-0.15, 0],
    [1, 1],
    [-1, -1],
    [0.575, 0.5],
    [Number.NaN, 0],
  ])('%d → %d', (input, output) => {
    expect(deadzone(input)).toBeCloseTo(output, 5);
  });
});

describe('padRates', () => {
  it('turns right and looks down for a drag to the lower right', () => {
    const rates = padRates(50, 50, 100);
    expect(rates.yaw).toBeLessThan(0);
    expect(rates.pitch).toBeGreaterThan(0);
  });

  it('caps a drag beyond the rim to full rate', () => {
    expect(padRates(-300, 0, 100)).toEqual({ yaw: 1, pitch: 0, roll: 0, z: 0 });
  });

  it('ignores a tap near the centre and a pad with no size', () => {
    expect(isIdle(padRates(3, -4, 100))).toBe(true);
    expect(isIdle(padRates(30, 30, 0))).toBe(true);
  });
});

describe('stickRates', () => {
  it('maps the sticks of a standard gamepad, ignoring rest wobble', () => {
    expect(stickRates([1, -1, 0.05, -1])).toEqual({ yaw: -1, pitch: -1, roll: 0, z: 1 });
    expect(stickRates([])).toEqual(ZERO_RATES);
  });
});
