/**
 * Control latency between two health samples: each control request that reached the daemon
 * reports how long it took from the cockpit receiving it to the daemon's first answer
 * (server/http/request-timing.ts), and the health history drains the figures once per sample.
 * Kept bounded: a flood of requests between two samples is counted in full, but only its most
 * recent timings are kept for the median and maximum.
 */
import type { ControlLatencySample } from '../contract/health.ts';

/** More than a sample interval's worth at the control rate limit of many clients. */
const MAX_TIMINGS = 2000;

export interface ControlLatency {
  record(ms: number): void;
  /** The figures since the last drain, then starts over. */
  drain(): ControlLatencySample;
}

export function createControlLatency(): ControlLatency {
  let timings: number[] = [];
  let seen = 0;
  return {
    record(ms) {
      if (!Number.isFinite(ms) || ms < 0) return;
      seen += 1;
      timings.push(ms);
      if (timings.length > MAX_TIMINGS) timings.splice(0, timings.length - MAX_TIMINGS);
    },
    drain() {
      const sorted = timings.sort((a, b) => a - b);
      const count = seen;
      timings = [];
      seen = 0;
      if (sorted.length === 0) return { count: 0, p50Ms: null, maxMs: null };
      const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
      return { count, p50Ms: round(median), maxMs: round(sorted.at(-1) as number) };
    },
  };
}

const round = (ms: number) => Math.round(ms * 100) / 100;
