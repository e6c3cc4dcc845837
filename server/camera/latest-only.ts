/**
 * Per-viewer backpressure: at most one frame is being delivered to a viewer and at most one
 * waits, the newest. A slow viewer therefore skips frames instead of buffering them, and never
 * holds up the others (each viewer has its own mailbox).
 */
import type { CameraFrame } from './frame.ts';

/** Resolves when the viewer has taken the frame (e.g. the socket drained). */
export type Deliver = (frame: CameraFrame) => Promise<void> | void;

export interface Mailbox {
  offer(frame: CameraFrame): void;
  close(): void;
  /** Frames replaced by a newer one before they could be sent. */
  readonly dropped: number;
  readonly delivered: number;
}

export function createMailbox(deliver: Deliver, onFailure: (error: unknown) => void): Mailbox {
  let pending: CameraFrame | undefined;
  let busy = false;
  let closed = false;
  let dropped = 0;
  let delivered = 0;

  const run = (frame: CameraFrame): void => {
    busy = true;
    Promise.resolve()
      .then(() => deliver(frame))
      .then(
        () => {
          delivered += 1;
        },
        (error: unknown) => {
          closed = true;
          pending = undefined;
          onFailure(error);
        },
      )
      .finally(() => {
        busy = false;
        const next = pending;
        pending = undefined;
        if (next && !closed) run(next);
      });
  };

  return {
    offer(frame) {
      if (closed) return;
      if (!busy) return run(frame);
      if (pending) dropped += 1;
      pending = frame;
    },
    close() {
      closed = true;
      if (pending) dropped += 1;
      pending = undefined;
    },
    get dropped() {
      return dropped;
    },
    get delivered() {
      return delivered;
    },
  };
}
