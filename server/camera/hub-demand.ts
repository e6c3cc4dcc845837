/**
 * When the frame hub's one upstream client runs, and when its source decodes JPEG (README-camera.md,
 * "Frame hub"). The client runs while anyone consumes it and for `idleStopMs` after the last consumer
 * or snapshot, or always when `idleStopMs` is null; an H.264 source decodes to JPEG while a JPEG viewer
 * exists and for `jpegLingerMs` after the last one or the last snapshot, so a poller or a reloading
 * page does not restart the decoder. Both deadlines run on the hub's clock (server/clock.ts).
 */
import type { TimerClock } from '../clock.ts';
import type { SourceRunner } from './source-runner.ts';

export interface DemandOptions {
  /** null: no camera configured; there is then nothing to run. */
  runner: SourceRunner | null;
  clock: TimerClock;
  idleStopMs: number | null;
  jpegLingerMs: number;
  /** Who consumes the source now: every viewer, listener and watch, and the JPEG viewers among them. */
  consumers(): { all: number; jpeg: number };
  /** The client was closed for want of consumers. */
  onIdle(): void;
}

export interface Demand {
  /** The hub is started (a stopped hub needs nothing). */
  readonly enabled: boolean;
  /** The source is asked to decode JPEG now. */
  readonly jpegWanted: boolean;
  enable(): void;
  disable(): void;
  /** Starts or stops the upstream client and the JPEG decoding to match who needs them now. */
  settle(): void;
  /** A consumer left: the client stays for `idleStopMs`, and JPEG decoding for `jpegLingerMs` if it took JPEG. */
  released(jpeg: boolean): void;
  /** A snapshot was asked for: it needs the client and JPEG decoding now and keeps them a while. */
  snapshotTaken(): void;
}

class ConsumerDemand implements Demand {
  enabled = false;
  jpegWanted = false;
  /** The upstream client stays open until then without viewers (a snapshot or a viewer just left). */
  private neededUntil = 0;
  /** JPEG decoding stays on until then without JPEG viewers (a snapshot was taken). */
  private jpegUntil = 0;
  private cancel: (() => void) | undefined;

  constructor(private readonly options: DemandOptions) {}

  enable(): void {
    this.enabled = true;
    this.settle();
  }

  disable(): void {
    this.enabled = false;
    this.cancel?.();
  }

  released(jpeg: boolean): void {
    const t = this.options.clock.now();
    this.keepNeeded(t);
    if (jpeg) this.jpegUntil = Math.max(this.jpegUntil, t + this.options.jpegLingerMs);
    this.settle();
  }

  snapshotTaken(): void {
    const t = this.options.clock.now();
    this.jpegUntil = t + this.options.jpegLingerMs;
    this.keepNeeded(t);
    this.settle();
  }

  settle(): void {
    this.cancel?.();
    this.cancel = undefined;
    const { runner, clock, idleStopMs } = this.options;
    if (!runner) return;
    const t = clock.now();
    const consumers = this.options.consumers();
    const needed = this.enabled && (idleStopMs === null || consumers.all > 0 || t < this.neededUntil);
    this.jpegWanted = needed && (consumers.jpeg > 0 || t < this.jpegUntil);
    runner.wantJpeg(this.jpegWanted);
    if (!needed) {
      void runner.halt();
      this.options.onIdle();
      return;
    }
    runner.run();
    const next = [this.neededUntil, this.jpegUntil].filter((u) => u > t);
    if (next.length > 0) this.cancel = clock.schedule(() => this.settle(), Math.min(...next) - t + 5);
  }

  private keepNeeded(t: number): void {
    const { idleStopMs } = this.options;
    if (idleStopMs !== null) this.neededUntil = Math.max(this.neededUntil, t + idleStopMs);
  }
}

export function createDemand(options: DemandOptions): Demand {
  return new ConsumerDemand(options);
}
