/**
 * An async context per incoming request in which the daemon transport marks when it first sends
 * to the daemon, so the HTTP layer can report the cockpit's own share of a control round trip.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface SendMarks {
  receivedAt: bigint;
  daemonSentAt?: bigint;
}

const store = new AsyncLocalStorage<SendMarks>();

export function withSendMarks<T>(marks: SendMarks, fn: () => T): T {
  return store.run(marks, fn);
}

/** Called by the daemon transport just before a request leaves for the daemon. */
export function markDaemonSend(): void {
  const marks = store.getStore();
  if (marks && marks.daemonSentAt === undefined) marks.daemonSentAt = process.hrtime.bigint();
}
