import { describe, expect, it } from 'vitest';
import { FrameStats } from './frame-stats.ts';

describe('FrameStats', () => {
  it('measures pictures per second over the window', () => {
    const stats = new FrameStats({ windowMs: 2000 });
    for (let t = 0; t <= 3000; t += 100) stats.record(t, t - 20);
    expect(stats.fps(3000)).toBeCloseTo(10, 0);
  });

  it('falls to zero when pictures stop', () => {
    const stats = new FrameStats({ windowMs: 2000 });
    for (let t = 0; t <= 1000; t += 100) stats.record(t, t);
    expect(stats.fps(1000)).toBeCloseTo(10, 0);
    expect(stats.fps(4000)).toBe(0);
  });

  it('reports the median latency of the recent pictures', () => {
    const stats = new FrameStats({ latencySamples: 3 });
    expect(stats.latencyMs()).toBeNull();
    stats.record(100, 90);
    stats.record(200, 150);
    stats.record(300, 290);
    expect(stats.latencyMs()).toBe(10);
    stats.record(400, 380);
    expect(stats.latencyMs()).toBe(20);
    stats.record(500, 600);
    expect(stats.latencyMs()).toBe(10);
    stats.reset();
    expect(stats.latencyMs()).toBeNull();
  });
});
