import { describe, expect, it } from 'vitest';
import { seeded } from '../../testing/fuzz.ts';
import { mutateJson } from '../../testing/json-mutation.ts';
import { telemetryFromData, type OdometryOrigin } from './rover-telemetry.ts';
import type { BaseTelemetry } from './types.ts';

const GPS = { battery: 87, orientation: 90, speed: 0.2, latitude: 22.7537, longitude: 114.0909, timestamp: 1.7e9 };
const ODOMETRY = { battery: 55, x: 1.5, y: -2, heading: 30, speed: 0.1 };
const context = (origin: OdometryOrigin) => ({
  origin,
  commanded: { linear: 0.5, angular: -0.25 },
  limits: { maxLinear: 1, maxAngular: 2 },
  at: 1_000,
});

/** Every number the dashboard and the /ws frame carry is a finite number (JSON has no Infinity: it would be null). */
function expectSane(t: BaseTelemetry, why: string): void {
  const numbers = [t.pose.x, t.pose.y, t.pose.heading, t.linear, t.angular];
  expect(numbers.every(Number.isFinite), `${why} → ${JSON.stringify(t)}`).toBe(true);
  expect(t.battery === null || (t.battery >= 0 && t.battery <= 100), why).toBe(true);
}

describe('rover telemetry read from odd /data bodies', () => {
  it.each([1, 2, 3])('stays finite and in range whatever the rover sends (seed %i)', (seed) => {
    const rng = seeded(seed);
    const log: string[] = [];
    for (const shape of [GPS, ODOMETRY]) {
      const origin: OdometryOrigin = {};
      for (let i = 0; i < 2_000; i += 1) {
        if (i % 50 === 0) origin.pending = true;
        const text = mutateJson(JSON.stringify(shape), rng, `reading ${i}`, log);
        expectSane(telemetryFromData(JSON.parse(text) as unknown, context(origin)), log.slice(-2).join(' | '));
      }
      // A sane reading after the storm is read as one.
      origin.pending = true;
      expect(telemetryFromData(shape, context(origin)).pose).toMatchObject({ x: 0, y: 0 });
    }
  });

  it('reads coordinates out of their range as no fix, which keeps the last pose', () => {
    const origin: OdometryOrigin = {};
    expect(telemetryFromData({ x: -1e7, y: 0 }, context(origin)).pose.x).toBe(0);
    const far = telemetryFromData({ x: 1e7, y: 0 }, context(origin)).pose;
    expect(far.x).toBe(2e7);
    // Before, 1e308 against an origin of -1e308 made x Infinity, which JSON sends as null.
    const previous = { x: 3, y: 4, heading: 1 };
    for (const odd of [{ x: 1e308, y: 0 }, { latitude: 91, longitude: 0 }, { latitude: 0, longitude: 181 }, {}])
      expect(telemetryFromData(odd, { ...context(origin), previous }).pose).toEqual(previous);
    expect(telemetryFromData({ heading: 2e6, x: 1e7, y: 0 }, context(origin)).pose).toEqual(far);
  });
});
