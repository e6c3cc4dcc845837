/**
 * The newest frame of each kind as the frame hub receives them: the picture rate /api/health
 * reports, the current JPEG (under a second old) that a new viewer or a snapshot gets at once, and
 * the snapshots waiting for the next JPEG when there is none (README-camera.md, "Frame hub").
 */
import type { TimerClock } from '../clock.ts';
import { createFpsMeter } from './fps-meter.ts';
import type { CameraFrame, FrameKind } from './frame.ts';

const FRESH_MS = 1000;

export interface NewestFrames {
  /** Remembers a frame as the newest of its kinds and counts it in the picture rate. */
  record(frame: CameraFrame): void;
  /** The newest frame of a kind, however old. */
  latest(kind: FrameKind): CameraFrame | undefined;
  /** The newest JPEG frame if it is under a second old. */
  fresh(): CameraFrame | undefined;
  /** The next JPEG frame, or undefined after `waitMs` or when the waits are ended. */
  next(waitMs: number): Promise<CameraFrame | undefined>;
  /** Hands a JPEG frame to every snapshot waiting for one. */
  wake(frame: CameraFrame): void;
  /** Ends every wait with no frame (the hub stopped). */
  endWaits(): void;
  /** Pictures per second lately. */
  rate(): number;
  /** Starts the picture rate over (the upstream client closed). */
  resetRate(): void;
}

class HubFrames implements NewestFrames {
  private readonly newest: Partial<Record<FrameKind, { frame: CameraFrame; at: number }>> = {};
  private readonly waiters = new Set<(frame: CameraFrame | undefined) => void>();
  private readonly fps = createFpsMeter();
  private h264Seen = false;

  constructor(private readonly clock: TimerClock) {}

  record(frame: CameraFrame): void {
    const at = this.clock.now();
    // One picture may come twice (its H.264, then its decoded JPEG): count pictures once.
    if (frame.h264 || !this.h264Seen) this.fps.tick(at);
    if (frame.h264) {
      this.h264Seen = true;
      this.newest.h264 = { frame, at };
    }
    if (frame.jpeg) this.newest.jpeg = { frame, at };
  }

  latest(kind: FrameKind): CameraFrame | undefined {
    return this.newest[kind]?.frame;
  }

  fresh(): CameraFrame | undefined {
    const current = this.newest.jpeg;
    return current && this.clock.now() - current.at <= FRESH_MS ? current.frame : undefined;
  }

  next(waitMs: number): Promise<CameraFrame | undefined> {
    return new Promise((resolve) => {
      const done = (frame: CameraFrame | undefined): void => {
        cancel();
        this.waiters.delete(done);
        resolve(frame);
      };
      const cancel = this.clock.schedule(() => done(undefined), waitMs);
      this.waiters.add(done);
    });
  }

  wake(frame: CameraFrame): void {
    this.answer(frame);
  }

  endWaits(): void {
    this.answer(undefined);
  }

  rate(): number {
    return this.fps.rate(this.clock.now());
  }

  resetRate(): void {
    this.fps.reset();
    this.h264Seen = false;
  }

  private answer(frame: CameraFrame | undefined): void {
    for (const resolve of this.waiters) resolve(frame);
    this.waiters.clear();
  }
}

export function createNewestFrames(clock: TimerClock): NewestFrames {
  return new HubFrames(clock);
}
