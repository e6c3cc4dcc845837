/**
 * Every latency sample since the relay started, counted in fixed 0.05 ms buckets: constant memory
 * however long it runs, and two readings subtract, so `npm run bench` takes percentiles over
 * exactly its phase. The recent window (latency-window.ts) says how it goes now; this says how it
 * went over a span.
 */

/** Bucket i holds samples in [i, i + 1) × BUCKET_MS; the last holds everything from LIMIT_MS up. */
export const BUCKET_MS = 0.05;
const BUCKET_US = 50;
const LIMIT_MS = 50;
const BUCKETS = Math.round(LIMIT_MS / BUCKET_MS) + 1;

export interface LatencyCounts {
  bucketMs: number;
  /** Samples per bucket, trailing empty buckets left off. */
  counts: number[];
}

export interface LatencyHistogram {
  add(ms: number): void;
  snapshot(): LatencyCounts;
}

export function createLatencyHistogram(): LatencyHistogram {
  const counts = new Float64Array(BUCKETS);
  return {
    add(ms) {
      // In whole microseconds first, so 0.2 ms lands in [0.2, 0.25) and not, by rounding, below.
      const bucket = Math.floor(Math.round(ms * 1000) / BUCKET_US);
      const i = Math.min(BUCKETS - 1, Math.max(0, bucket));
      counts[i] = (counts[i] as number) + 1;
    },
    snapshot() {
      let end = BUCKETS;
      while (end > 0 && counts[end - 1] === 0) end -= 1;
      return { bucketMs: BUCKET_MS, counts: Array.from(counts.subarray(0, end)) };
    },
  };
}

/** The samples counted in `later` but not yet in `earlier` (two snapshots of one histogram). */
export function countsBetween(earlier: LatencyCounts, later: LatencyCounts): LatencyCounts {
  return { bucketMs: later.bucketMs, counts: later.counts.map((n, i) => n - (earlier.counts[i] ?? 0)) };
}

/**
 * The q-quantile (0 < q ≤ 1), as the upper edge of the bucket it falls in: never below the true
 * figure, at most one bucket above it. Null with no samples.
 */
export function quantileOf(h: LatencyCounts, q: number): number | null {
  const total = h.counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < h.counts.length; i += 1) {
    seen += h.counts[i] as number;
    if (seen >= rank) return Number(((i + 1) * h.bucketMs).toFixed(3));
  }
  return Number((h.counts.length * h.bucketMs).toFixed(3));
}
