import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '../../../../server/contract/index.ts';
import { readHealthFrame, readHealthHistory, type HealthPoint } from './health-api.ts';
import { HEALTH_PLOTS, mergePoints } from './health-plots.ts';

const point = (t: number, over: Partial<HealthPoint> = {}): HealthPoint => ({
  t,
  streamHz: 29.8,
  loopHz: null,
  cameraFps: 15,
  cpuPercent: 12.34,
  control: { count: 0, p50Ms: null, maxMs: null },
  ...over,
});

describe('health history at the edge', () => {
  it('reads the route and drops samples missing a figure', () => {
    const history = readHealthHistory({
      everyMs: 5000,
      windowMs: 600_000,
      samples: [point(1), { t: 2, streamHz: 'x' }],
    });
    expect(history).toEqual({ everyMs: 5000, windowMs: 600_000, points: [point(1)] });
    expect(readHealthHistory({ samples: [] })).toBeNull();
  });

  it('reads the sample of a health_sample frame only', () => {
    // The reader checks what the socket carries, so it is fed frames that hold only what it reads.
    const frame = (u: object): ServerFrame => u as ServerFrame;
    expect(readHealthFrame(frame({ type: 'health_sample', sample: point(5) }))).toEqual(point(5));
    expect(readHealthFrame(frame({ type: 'event', sample: point(5) }))).toBeNull();
  });
});

describe('health plots', () => {
  it('merges history and live samples once each, sorted, over ten minutes from the newest', () => {
    const merged = mergePoints([point(0), point(5000), point(10_000)], [point(10_000), point(605_000), point(7000)]);
    expect(merged.map((p) => p.t)).toEqual([7000, 10_000, 605_000]);
  });

  it('says each plot in words', () => {
    const latest = point(1, { loopHz: 49.95, control: { count: 3, p50Ms: 4.26, maxMs: 12.6 } });
    expect(HEALTH_PLOTS.map((plot) => plot.summary(latest))).toEqual([
      'State stream 29.8 Hz, control loop 50.0 Hz',
      'Median 4.3 ms, slowest 13 ms (3 requests)',
      '15.0 fps',
      '12.3 %',
    ]);
    expect(HEALTH_PLOTS[1]!.summary(point(1))).toBe('No control request in the last sample');
    expect(HEALTH_PLOTS[0]!.summary(null)).toBe('Waiting for the first sample');
  });
});
