/**
 * A total deadline for one platform request, its body read included. `AbortSignal.timeout` is
 * not enough: Node holds such a signal weakly, so once nothing else refers to it garbage
 * collection can take it and the timeout never fires; a platform that answers 200 and trickles
 * its body forever then holds the caller, and a loop awaiting it, for good. Here a real timer
 * holds the controller until the work settles, and the caller is released at the deadline even
 * if the work ignores its signal. server/deadline.ts is the same helper for the server, which
 * this library may not import (README.md).
 */

/** Starts the timer of a deadline; answers its cancel. The shape of Scheduler.after (types.ts). */
export type DeadlineTimer = (ms: number, expire: () => void) => () => void;

/** A real timer; unref'd so it never holds a stopping process open (Node still holds the timer itself). */
export const realDeadlineTimer: DeadlineTimer = (ms, expire) => {
  const handle = setTimeout(expire, ms);
  handle.unref?.();
  return () => clearTimeout(handle);
};

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
  timer: DeadlineTimer = realDeadlineTimer,
): Promise<T> {
  const controller = new AbortController();
  let expire: (reason: unknown) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => (expire = reject));
  const cancel = timer(ms, () => {
    const reason = deadlineError();
    controller.abort(reason);
    expire(reason);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    cancel();
  }
}
