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

class LatestOnly implements Mailbox {
  private pending: CameraFrame | undefined;
  private busy = false;
  private closed = false;
  dropped = 0;
  delivered = 0;

  constructor(
    private readonly deliver: Deliver,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  offer(frame: CameraFrame): void {
    if (this.closed) return;
    if (!this.busy) return this.run(frame);
    if (this.pending) this.dropped += 1;
    this.pending = frame;
  }

  close(): void {
    this.closed = true;
    if (this.pending) this.dropped += 1;
    this.pending = undefined;
  }

  private run(frame: CameraFrame): void {
    this.busy = true;
    Promise.resolve()
      .then(() => this.deliver(frame))
      .then(
        () => {
          this.delivered += 1;
        },
        (error: unknown) => {
          this.close();
          this.onFailure(error);
        },
      )
      .finally(() => {
        this.busy = false;
        const next = this.pending;
        this.pending = undefined;
        if (next && !this.closed) this.run(next);
      });
  }
}

export function createMailbox(deliver: Deliver, onFailure: (error: unknown) => void): Mailbox {
  return new LatestOnly(deliver, onFailure);
}
