/**
 * An async context per control request in which the daemon transport marks when it first sends
 * to the daemon, so the HTTP layer can report the cockpit's own share of a control round trip.
 *
 * On Node 20 an AsyncLocalStorage in use installs promise hooks for every promise in the process,
 * which costs the cockpit's busiest path (GET /api/state, the broadcaster) a measurable share of
 * its time. So the store is entered only for the requests that carry marks, and disabled again
 * whenever none of them is in flight.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface SendMarks {
  receivedAt: bigint;
  daemonSentAt?: bigint;
  /** When the daemon's first answer (its status and headers) arrived. */
  daemonAnsweredAt?: bigint;
}

const store = new AsyncLocalStorage<SendMarks>();
let inFlight = 0;

export async function withSendMarks<T>(marks: SendMarks, fn: () => Promise<T>): Promise<T> {
  inFlight += 1;
  try {
    return await store.run(marks, fn);
  } finally {
    inFlight -= 1;
    // Work a finished request left running (a move's completion) then simply leaves no mark.
    if (inFlight === 0) store.disable();
  }
}

/** Called by the daemon transport just before a request leaves for the daemon. */
export function markDaemonSend(): void {
  const marks = store.getStore();
  if (marks && marks.daemonSentAt === undefined) marks.daemonSentAt = process.hrtime.bigint();
}

/** Called by the daemon transport when the daemon's answer arrives. */
export function markDaemonAnswer(): void {
  const marks = store.getStore();
  if (marks && marks.daemonAnsweredAt === undefined) marks.daemonAnsweredAt = process.hrtime.bigint();
}
