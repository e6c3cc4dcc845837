/** Capped exponential backoff with jitter, so many cockpits never reconnect in lockstep. */
export interface Backoff {
  next(): number;
  reset(): void;
}

export function createBackoff(minMs = 250, maxMs = 5000, random: () => number = Math.random): Backoff {
  let attempt = 0;
  return {
    next() {
      const base = Math.min(maxMs, minMs * 2 ** attempt);
      attempt += 1;
      return Math.round(base * (0.75 + random() * 0.5));
    },
    reset() {
      attempt = 0;
    },
  };
}
