/**
 * Change frames for /ws (docs/contract.md, "How the desktop server behaves"): a status is broadcast only when its key
 * changes, so a 2 Hz poll or a 10 Hz DoA stream does not flood every viewer with repeats.
 */

export type Broadcast = (frame: { type: string; [key: string]: unknown }) => void;

export interface Deduped<S> {
  /** Broadcasts `{type, ...status}` when the key differs from the last one sent. */
  offer(status: S): void;
}

export function createDeduped<S extends object>(
  type: string,
  keyOf: (status: S) => string,
  broadcast: Broadcast | undefined,
): Deduped<S> {
  let last: string | undefined;
  return {
    offer(status) {
      if (!broadcast) return;
      const key = keyOf(status);
      if (key === last) return;
      last = key;
      broadcast({ type, ...status });
    },
  };
}

/** Rounds for a de-duplication key; null stays null. */
export function keyRound(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
