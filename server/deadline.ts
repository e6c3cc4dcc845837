/**
 * A total deadline for one outgoing request, its body read included. `AbortSignal.timeout` is
 * not enough: Node holds such a signal (and the one `AbortSignal.any` makes) weakly, so once
 * nothing else refers to it garbage collection can take it and the timeout never fires; an
 * answer that trickles its body forever then holds the caller for good. Here a real timer holds
 * the controller until the work settles, and the caller is released at the deadline even if the
 * work ignores its signal. platform-client/deadline.ts is the same helper for the platform
 * client, which may not import server/ (docs/architecture.md, "Folders and the direction of imports").
 */
import { realSchedule, type Schedule } from './clock.ts';

export interface DeadlineOptions {
  /** The caller's own signal: aborting it ends the work at once, with its reason. */
  signal?: AbortSignal;
  /** The timer; tests pass a manual clock's. */
  schedule?: Schedule;
}

/** What the work is aborted with at the deadline: what `AbortSignal.timeout` gives, so error mapping stays. */
export function deadlineError(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

/**
 * Runs `work` with a signal that aborts after `ms`; the result settles by then at the latest,
 * rejected with a TimeoutError. The timer is cleared when the work settles.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  options: DeadlineOptions = {},
): Promise<T> {
  const { signal: outer, schedule = realSchedule } = options;
  const controller = new AbortController();
  let expire: (reason: unknown) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => (expire = reject));
  const abort = (reason: unknown) => {
    controller.abort(reason);
    expire(reason);
  };
  const onOuterAbort = () => abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const cancel = schedule(() => abort(deadlineError()), ms);
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    cancel();
    outer?.removeEventListener('abort', onOuterAbort);
  }
}
