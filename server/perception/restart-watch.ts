/**
 * Tells when the daemon restarted under the tracker (docs/contract.md, "How the desktop server behaves"): a restarted daemon
 * comes back with its tracker off and says nothing, so the cockpit infers it from two signs.
 * - Two consecutive face polls with a null `ts` while weight 1 is expected and no hold is live
 *   (at weight 0 the daemon clears the aim and reports a null ts too, so holds must not count).
 * - The daemon's own status leaving `running` and coming back.
 */

/** Consecutive null-ts polls that mean a restart (the reference's REASSERT_MISSES = 2). */
export const RESTART_MISSES = 2;

export interface RestartWatch {
  /** Feeds one face poll; true when this poll completes the run of misses. */
  poll(nullTsWhileExpected: boolean): boolean;
  /** Feeds the daemon state; true on the return to `running` after any other state. */
  status(state: string | undefined): boolean;
  reset(): void;
}

export function createRestartWatch(): RestartWatch {
  let misses = 0;
  let wentAway = false;
  return {
    poll(miss) {
      misses = miss ? misses + 1 : 0;
      if (misses < RESTART_MISSES) return false;
      misses = 0;
      return true;
    },
    status(state) {
      if (state === undefined) return false;
      if (state !== 'running') {
        wentAway = true;
        return false;
      }
      const back = wentAway;
      wentAway = false;
      return back;
    },
    reset() {
      misses = 0;
    },
  };
}
