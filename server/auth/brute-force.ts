/**
 * Growing delays after failed credentials. Intended use: after a
 * credential check FAILS for a non-local client, call recordFailure and hold the failure
 * answer back by delayFor(key). A request whose credential is valid is never delayed or refused,
 * and recordSuccess clears the history, so the owner can never be locked out.
 */
import type { Clock } from './clock.ts';

export interface FailureThrottle {
  /** Milliseconds to hold back the answer: 0 with no recent failure, then base doubling to max. */
  delayFor(clientKey: string): number;
  recordFailure(clientKey: string): void;
  recordSuccess(clientKey: string): void;
  /** Keys currently tracked. */
  size(): number;
}

export interface FailureThrottleOptions {
  clock: Clock;
  baseMs?: number;
  maxMs?: number;
  /** A client quiet this long starts again from no failures. */
  forgetAfterMs?: number;
  maxKeys?: number;
}

interface Entry {
  failures: number;
  lastAt: number;
}

export function createFailureThrottle(options: FailureThrottleOptions): FailureThrottle {
  const { clock, baseMs = 250, maxMs = 8000, forgetAfterMs = 15 * 60_000, maxKeys = 10_000 } = options;
  const entries = new Map<string, Entry>();

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry && clock.now() - entry.lastAt >= forgetAfterMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  function delayFor(key: string): number {
    const entry = live(key);
    if (!entry) return 0;
    // Cap the exponent before shifting so a long attack cannot overflow to Infinity.
    return Math.min(maxMs, baseMs * 2 ** Math.min(entry.failures - 1, 30));
  }

  function recordFailure(key: string): void {
    const failures = (live(key)?.failures ?? 0) + 1;
    entries.delete(key);
    entries.set(key, { failures, lastAt: clock.now() });
    if (entries.size > maxKeys) prune();
  }

  function prune(): void {
    const now = clock.now();
    for (const [key, entry] of entries) if (now - entry.lastAt >= forgetAfterMs) entries.delete(key);
    // Still too many: forget the least recently failing clients (map order is recency).
    while (entries.size > maxKeys) entries.delete(entries.keys().next().value as string);
  }

  return {
    delayFor,
    recordFailure,
    recordSuccess: (key) => void entries.delete(key),
    size: () => entries.size,
  };
}
