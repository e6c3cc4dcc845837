/**
 * The frame hub's viewers, and the fan-out of each frame to them: a viewer subscribes to JPEG or
 * H.264 frames and gets the newest through its own mailbox (latest-only.ts), so a slow viewer drops
 * frames without slowing the others. Keeps the count of viewers per kind and of the frames they dropped.
 */
import type { Log } from '../log.ts';
import type { CameraFrame, FrameKind } from './frame.ts';
import { createMailbox, type Deliver, type Mailbox } from './latest-only.ts';

export interface Subscription {
  close(): void;
  readonly dropped: number;
  readonly delivered: number;
}

/** A viewer just added: the handle it gets, and a way to show it a frame before the next one comes. */
export interface Joined {
  subscription: Subscription;
  offer(frame: CameraFrame): void;
}

export interface Viewers {
  /** `left` runs when the viewer leaves (it closed, or a delivery failed), not when `endAll` ends it. */
  add(kind: FrameKind, deliver: Deliver, onEnd: (() => void) | undefined, left: () => void): Joined;
  offer(kind: FrameKind, frame: CameraFrame): void;
  count(kind: FrameKind): number;
  /** Frames skipped for slow viewers, all viewers so far. */
  dropped(): number;
  /** Ends every viewer (the hub stopped): each one's `onEnd` runs. */
  endAll(): void;
}

interface Viewer {
  box: Mailbox;
  onEnd: (() => void) | undefined;
}

class ViewerFanout implements Viewers {
  private readonly viewers: Record<FrameKind, Set<Viewer>> = { jpeg: new Set(), h264: new Set() };
  private droppedClosed = 0;

  constructor(private readonly log: Log) {}

  add(kind: FrameKind, deliver: Deliver, onEnd: (() => void) | undefined, left: () => void): Joined {
    const viewer: Viewer = {
      box: createMailbox(deliver, (error) => {
        this.log.debug('camera viewer failed; unsubscribed', { error: String(error) });
        close();
      }),
      onEnd,
    };
    const close = (): void => {
      if (!this.viewers[kind].delete(viewer)) return;
      this.retire(viewer);
      left();
    };
    this.viewers[kind].add(viewer);
    const { box } = viewer;
    const subscription: Subscription = {
      close,
      get dropped() {
        return box.dropped;
      },
      get delivered() {
        return box.delivered;
      },
    };
    return { subscription, offer: (frame) => box.offer(frame) };
  }

  offer(kind: FrameKind, frame: CameraFrame): void {
    for (const viewer of this.viewers[kind]) viewer.box.offer(frame);
  }

  count(kind: FrameKind): number {
    return this.viewers[kind].size;
  }

  dropped(): number {
    const all = [...this.viewers.jpeg, ...this.viewers.h264];
    return this.droppedClosed + all.reduce((sum, viewer) => sum + viewer.box.dropped, 0);
  }

  endAll(): void {
    for (const kind of ['jpeg', 'h264'] as const) {
      const ending = [...this.viewers[kind]];
      this.viewers[kind].clear();
      for (const viewer of ending) {
        this.retire(viewer);
        viewer.onEnd?.();
      }
    }
  }

  private retire(viewer: Viewer): void {
    viewer.box.close();
    this.droppedClosed += viewer.box.dropped;
  }
}

export function createViewers(log: Log): Viewers {
  return new ViewerFanout(log);
}
