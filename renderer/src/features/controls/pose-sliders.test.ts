import { describe, expect, it } from 'vitest';
import { formatSliderValue, sliderRequest, sliderValue } from './pose-sliders.ts';

const state = {
  head: { x: 1, y: -2, z: 4, roll: 3.4, pitch: -6, yaw: 20 },
  bodyYaw: 47,
  antennas: { right: -12, left: 33 },
};

describe('sliderValue', () => {
  it('reads the robot state, rounded to the slider step', () => {
    expect(sliderValue('z', state)).toBe(4);
    expect(sliderValue('roll', state)).toBe(3);
    expect(sliderValue('bodyYaw', state)).toBe(45);
    expect(sliderValue('antennaLeft', state)).toBe(35);
    expect(sliderValue('z', null)).toBeNull();
  });
});

describe('sliderRequest', () => {
  it('keeps the rest of the head pose when the height or the roll changes', () => {
    expect(sliderRequest('z', -10, state)).toEqual({
      route: 'look',
      body: { yaw: 20, pitch: -6, roll: 3.4, x: 1, y: -2, z: -10, duration: 0.8 },
    });
    expect(sliderRequest('roll', 15, state)).toMatchObject({ route: 'look', body: { yaw: 20, roll: 15, z: 4 } });
  });

  it('turns the body without naming head fields', () => {
    expect(sliderRequest('bodyYaw', -90, state)).toEqual({ route: 'look', body: { body_yaw: -90, duration: 1.5 } });
  });

  it('sends both antennas, the other one where it is', () => {
    expect(sliderRequest('antennaRight', 50, state)).toEqual({ route: 'antennas', right: 50, left: 33 });
    expect(sliderRequest('antennaLeft', -20, null)).toEqual({ route: 'antennas', right: 0, left: -20 });
  });
});

describe('formatSliderValue', () => {
  it.each([
    [12.4, '°', '+12°'],
    [-5, 'mm', '\u22125 mm'],
    [0, '°', '0°'],
    [null, 'mm', '— mm'],
  ] as const)('%s %s → %s', (value, unit, text) => {
    expect(formatSliderValue(value, unit)).toBe(text);
  });
});
