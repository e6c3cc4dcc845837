/**
 * Per-client sliding-window rate limit for control routes (docs/contract.md, "Rate
 * limiter"; docs/contract.md, "Limits": ROBOT_RATE_LIMIT per second per client).
 */
import type { Clock } from '../clock.ts';

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request for `key` when allowed; a refused request is not counted. */
  check(key: string): RateDecision;
  /** Keys currently tracked (for tests and health figures). */
  size(): number;
}

export interface RateLimiterOptions {
  limit: number;
  windowMs?: number;
  clock: Clock;
  /** Most clients tracked at once; beyond it the least recently seen are forgotten. */
  maxKeys?: number;
}

/**
 * Each key keeps the times of its accepted requests inside the window; a request is refused when
 * `limit` of them remain. Keys idle for a whole window hold no information and are dropped, so
 * memory follows the number of active clients, capped by maxKeys.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit, clock, windowMs = 1000, maxKeys = 10_000 } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  const hits = new Map<string, number[]>();
  let lastSweep = clock.now();

  /**
   * Whether a request counted at `t` is inside the window ending now. One counted after `now` was
   * counted before the wall clock was set back (a time sync): it says nothing about the last
   * second, and keeping it locked the client out of every control route for as long as the clock
   * had jumped (Retry-After 3601 after an hour).
   */
  const inWindow = (t: number, now: number) => t > now - windowMs && t <= now;

  function sweep(now: number): void {
    lastSweep = now;
    for (const [key, times] of hits) if (times.length === 0 || !inWindow(times.at(-1) as number, now)) hits.delete(key);
  }

  function check(key: string): RateDecision {
    const now = clock.now();
    if (now - lastSweep >= windowMs || now < lastSweep) sweep(now);
    const times = (hits.get(key) ?? []).filter((t) => inWindow(t, now));
    // Re-inserting keeps the map in least-recently-seen order for eviction.
    hits.delete(key);
    hits.set(key, times);
    if (times.length >= limit) {
      const waitMs = (times[0] as number) + windowMs - now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    times.push(now);
    while (hits.size > maxKeys) hits.delete(hits.keys().next().value as string);
    return { ok: true };
  }

  return { check, size: () => hits.size };
}
