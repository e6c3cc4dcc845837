/**
 * Delay after consecutive transport failures: the loop's own period at
 * first, then 5 s, 10 s, 20 s... capped at 60 s (docs/platform.md, "Errors" and docs/platform.md, "Chat stream": "backoff capped
 * at 60 s on transport errors"). Never shorter than the loop's normal period.
 */
import { CADENCE } from './limits.ts';

/** The wait before the next attempt after `failures` consecutive transport failures. */
export function backoffDelay(periodMs: number, failures: number): number {
  if (failures <= 0) return periodMs;
  const grown = CADENCE.backoffStepMs * 2 ** (failures - 1);
  return Math.max(periodMs, Math.min(CADENCE.backoffCapMs, grown));
}
