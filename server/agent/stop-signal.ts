/**
 * Ties a turn to the latched stop: the moment the operator's stop latches,
 * the turn's signal aborts, so a tool call still waiting is cancelled and no further model call
 * or tool runs. Control would refuse each later move with STOP_LATCHED anyway; aborting also
 * ends the turn instead of letting the model retry against a latched robot. The latch has no
 * events, and the autonomy registry does not call a second pause when demo mode already paused
 * everyone, so the latch itself is watched (100 ms is well under a person's reaction time).
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
