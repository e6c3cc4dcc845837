/** The last N latency samples, summarised as percentiles (for stats and `npm run bench`). */

export interface LatencySummary {
  samples: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

export interface LatencyWindow {
  add(ms: number): void;
  summary(): LatencySummary;
}

export function createLatencyWindow(size: number): LatencyWindow {
  const ring = new Float64Array(size);
  let count = 0;
  return {
    add(ms) {
      ring[count % size] = ms;
      count += 1;
    },
    summary() {
      const n = Math.min(count, size);
      if (n === 0) return { samples: 0, p50: null, p99: null, max: null };
      const sorted = Array.from(ring.subarray(0, n)).sort((a, b) => a - b);
      const at = (q: number): number => Number((sorted[Math.min(n - 1, Math.floor(q * n))] ?? 0).toFixed(3));
      return { samples: n, p50: at(0.5), p99: at(0.99), max: at(1) };
    },
  };
}
