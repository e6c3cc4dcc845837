/** Reconnect delays for the state socket: exponential, capped, with jitter so that many open
 * dashboards do not all knock on a restarted cockpit in the same millisecond. */

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** Share of the delay that is randomised either way, 0..1. */
  jitter: number;
}

export const DEFAULT_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({ baseMs: 500, maxMs: 10_000, jitter: 0.2 });

/** Delay before reconnect attempt number `attempt` (0 = the first retry). */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  const nominal = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  const spread = nominal * policy.jitter;
  const delay = nominal - spread + random() * 2 * spread;
  return Math.round(Math.min(policy.maxMs, Math.max(0, delay)));
}
