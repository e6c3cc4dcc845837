import { describe, expect, it } from 'vitest';
import { BUCKET_MS, countsBetween, createLatencyHistogram, quantileOf } from './latency-histogram.ts';

describe('latency histogram', () => {
  it('gives percentiles as the upper edge of their bucket', () => {
    const h = createLatencyHistogram();
    for (let i = 0; i < 98; i += 1) h.add(1.01);
    h.add(4.2);
    h.add(7.9);
    const counts = h.snapshot();
    expect(quantileOf(counts, 0.5)).toBe(1.05);
    expect(quantileOf(counts, 0.99)).toBe(4.25);
    expect(quantileOf(counts, 1)).toBe(7.95);
  });

  it('takes percentiles over the span between two snapshots only', () => {
    const h = createLatencyHistogram();
    for (let i = 0; i < 1000; i += 1) h.add(30);
    const before = h.snapshot();
    for (let i = 0; i < 100; i += 1) h.add(0.5);
    const span = countsBetween(before, h.snapshot());
    expect(span.counts.reduce((a, b) => a + b, 0)).toBe(100);
    expect(quantileOf(span, 0.99)).toBe(0.55);
  });

  it('keeps every sample in constant room: the slow ones are counted in the last bucket', () => {
    const h = createLatencyHistogram();
    h.add(-1);
    h.add(10_000);
    const counts = h.snapshot();
    expect(counts.counts[0]).toBe(1);
    expect(counts.counts.length).toBe(Math.round(50 / BUCKET_MS) + 1);
    expect(quantileOf(counts, 1)).toBeGreaterThanOrEqual(50);
  });

  it('has no percentile without samples', () => {
    expect(quantileOf(createLatencyHistogram().snapshot(), 0.99)).toBeNull();
  });
});
