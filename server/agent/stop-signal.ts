/**
 * Ties a turn to the latched stop: the moment the operator's stop latches,
 * the turn's signal aborts, so a tool call still waiting is cancelled and no further model call
 * or tool runs. Control would refuse each later move with STOP_LATCHED anyway; aborting also
 * ends the turn instead of letting the model retry against a latched robot. The stop aborts the
 * running turns itself (`abortTurns`, given to Control as a stop extra): a turn that only
 * watched the latch went on moving the robot when the operator resumed before its next look.
 * The watch stays for turns started while the latch holds (they end at once) and for callers
 * built without the stop extra (100 ms is well under a person's reaction time).
 */
import type { StopLatch } from '../motion/stop-latch.ts';

export const STOPPED_MESSAGE = 'stopped by the operator (latched stop)';

export function watchLatch(latch: Pick<StopLatch, 'engaged'>, controller: AbortController, everyMs = 100): () => void {
  const check = () => {
    if (latch.engaged() && !controller.signal.aborted) controller.abort(new Error(STOPPED_MESSAGE));
  };
  check();
  const timer = setInterval(check, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The stop's part: aborts every running turn now; answers how many were running. */
export function abortTurns(running: Iterable<AbortController>): number {
  let count = 0;
  for (const controller of running) {
    count += 1;
    if (!controller.signal.aborted) controller.abort(new Error(STOPPED_MESSAGE));
  }
  return count;
}
