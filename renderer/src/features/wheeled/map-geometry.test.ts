import { describe, expect, it } from 'vitest';
import {
  extendTrail,
  fitView,
  headingRotation,
  mapLabel,
  MAP_SIZE,
  MIN_SPAN,
  toMap,
  trailPoints,
} from './map-geometry.ts';

describe('map geometry', () => {
  it('centres an empty or short trail at least MIN_SPAN metres across', () => {
    expect(fitView([])).toEqual({ scale: MAP_SIZE / MIN_SPAN, cx: 0, cy: 0 });
    expect(
      fitView([
        [0, 0],
        [1, 0],
      ]),
    ).toEqual({ scale: MAP_SIZE / MIN_SPAN, cx: 0.5, cy: 0 });
  });

  it('zooms out to keep a long trail in view, north up', () => {
    const view = fitView([
      [0, 0],
      [10, 0],
    ]);
    expect(view.scale).toBeCloseTo(MAP_SIZE / 11);
    const [x0] = toMap(view, 0, 0);
    const [x1] = toMap(view, 10, 0);
    expect(x1 - x0).toBeCloseTo(MAP_SIZE - 2 * 0.5 * view.scale, 0);
    const [, yNorth] = toMap(view, 5, 1);
    const [, ySouth] = toMap(view, 5, -1);
    expect(yNorth).toBeLessThan(ySouth);
    expect(trailPoints(view, [[5, 0]])).toBe(`${MAP_SIZE / 2},${MAP_SIZE / 2}`);
  });

  it('turns the arrow counter-clockwise for a positive heading and says where the base is', () => {
    expect(headingRotation(90)).toBe(-90);
    expect(mapLabel({ x: 0.241, y: -1, heading: 44.6 })).toBe('Map: base at x 0.24 m, y -1.00 m, heading 45°');
  });

  it('adds trail points 3 cm apart, keeping the newest', () => {
    let trail: Array<[number, number]> = [];
    trail = extendTrail(trail, 0, 0);
    trail = extendTrail(trail, 0.01, 0);
    trail = extendTrail(trail, 0.05, 0);
    expect(trail).toEqual([
      [0, 0],
      [0.05, 0],
    ]);
    expect(extendTrail(trail, 1, 1, 2)).toEqual([
      [0.05, 0],
      [1, 1],
    ]);
  });
});
