/**
 * Keeps ONE upstream camera source running while the hub needs it: starts it, notices when
 * frames stop, and re-acquires it by itself (docs/contract.md, "States": "the cockpit re-acquires
 * by itself within about 1 second"). A source that cannot start is retried with capped
 * backoff. Re-acquiring only ever means stop + start of the source: daemon media is never
 * released or acquired here, on start-up retries or otherwise (docs/contract.md, operational
 * rules; docs/daemon.md, "Duties of the cockpit").
 */
import type { TimerClock } from '../clock.ts';
import type { CameraHealth } from '../contract/health.ts';
import { createBackoff, type Backoff } from '../daemon/backoff.ts';
import type { Log } from '../log.ts';
import type { CameraFrame, CameraSource } from './frame.ts';

export interface RunnerOptions {
  source: CameraSource;
  log: Log;
  onFrame(frame: CameraFrame): void;
  /** Frames stopped for this long: the source is stuck and is restarted. */
  stallMs: number;
  /** A fresh start gets this long for its first frame (connect, negotiate, first keyframe). */
  firstFrameMs: number;
  retryMinMs: number;
  retryMaxMs: number;
  /** The watchdog's and the retries' time (server/clock.ts). */
  clock: TimerClock;
}

export interface RunnerStats {
  starts: number;
  failedStarts: number;
  restarts: number;
}

export interface SourceRunner {
  /** Begins acquiring; idempotent. */
  run(): void;
  /** Stops acquiring and stops the source. */
  halt(): Promise<void>;
  wantJpeg(on: boolean): void;
  status(): CameraHealth['status'];
  /** Why the last attempt to get pictures failed; undefined once a picture came or while none failed. */
  trouble(): string | undefined;
  stats(): RunnerStats;
}

class Runner implements SourceRunner {
  private readonly backoff: Backoff;
  private readonly counts: RunnerStats = { starts: 0, failedStarts: 0, restarts: 0 };
  private running = false;
  /** Bumped by every start, restart and halt, so callbacks of an older attempt are ignored. */
  private generation = 0;
  private startedAt: number | undefined;
  private lastFrameAt: number | undefined;
  private everFramed = false;
  /** The last failure since the last picture: what health says while the camera is not live. */
  private lastTrouble: string | undefined;
  private jpeg = false;
  private cancelRetry: (() => void) | undefined;
  private cancelWatchdog: (() => void) | undefined;
  /** Start and stop of the source never overlap: each waits for the previous one. */
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly o: RunnerOptions) {
    this.backoff = createBackoff(o.retryMinMs, o.retryMaxMs);
  }

  run(): void {
    if (this.running) return;
    this.running = true;
    this.generation += 1;
    this.watch();
    void this.attempt(this.generation);
  }

  async halt(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.generation += 1;
    this.startedAt = undefined;
    this.lastFrameAt = undefined;
    this.lastTrouble = undefined;
    this.cancelRetry?.();
    this.cancelWatchdog?.();
    await this.serial(() => this.o.source.stop().catch(() => {}));
  }

  wantJpeg(on: boolean): void {
    this.jpeg = on;
    if (this.running) this.o.source.wantJpeg?.(on);
  }

  status(): CameraHealth['status'] {
    if (!this.running) return 'off';
    if (this.lastFrameAt !== undefined && this.o.clock.now() - this.lastFrameAt <= this.o.stallMs) return 'live';
    return this.everFramed ? 'lost' : 'starting';
  }

  trouble(): string | undefined {
    return this.status() === 'live' ? undefined : this.lastTrouble;
  }

  stats(): RunnerStats {
    return { ...this.counts };
  }

  private serial(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(work, work);
    return this.chain;
  }

  private onFrame(gen: number, frame: CameraFrame): void {
    if (gen !== this.generation) return;
    if (this.lastFrameAt === undefined) this.backoff.reset();
    this.lastFrameAt = this.o.clock.now();
    this.everFramed = true;
    this.lastTrouble = undefined;
    this.o.onFrame(frame);
  }

  private attempt(gen: number): Promise<void> {
    return this.serial(async () => {
      if (gen !== this.generation) return;
      const { source, log } = this.o;
      this.startedAt = this.o.clock.now();
      this.lastFrameAt = undefined;
      this.counts.starts += 1;
      try {
        source.wantJpeg?.(this.jpeg);
        await source.start(
          (frame) => this.onFrame(gen, frame),
          (error) =>
            gen === this.generation && this.restart(`the camera failed: ${error.message}`, this.backoff.next()),
        );
      } catch (error) {
        this.counts.failedStarts += 1;
        log.debug('camera source did not start', { source: source.name, error: String(error) });
        if (gen === this.generation) this.restart(`the camera did not start: ${errorText(error)}`, this.backoff.next());
        return;
      }
      // Halted or restarted while starting: this attempt is stale.
      if (gen !== this.generation) await source.stop().catch(() => {});
    });
  }

  private restart(reason: string, delayMs: number): void {
    if (!this.running) return;
    this.generation += 1;
    const gen = this.generation;
    this.counts.restarts += 1;
    this.startedAt = undefined;
    this.lastTrouble = reason;
    this.o.log.debug('re-acquiring the camera', { source: this.o.source.name, reason, delayMs });
    void this.serial(() => this.o.source.stop().catch(() => {}));
    this.cancelRetry?.();
    this.cancelRetry = this.o.clock.schedule(() => void this.attempt(gen), delayMs);
  }

  /** The watchdog: checks four times per stall window while running. */
  private watch(): void {
    this.cancelWatchdog = this.o.clock.schedule(() => {
      if (!this.running) return;
      this.check();
      this.watch();
    }, Math.max(50, this.o.stallMs / 4));
  }

  private check(): void {
    if (!this.running || this.startedAt === undefined) return;
    const now = this.o.clock.now();
    if (this.lastFrameAt !== undefined && now - this.lastFrameAt > this.o.stallMs) {
      this.restart(`the camera's pictures stopped for over ${seconds(this.o.stallMs)}`, 0);
    } else if (this.lastFrameAt === undefined && now - this.startedAt > this.o.firstFrameMs) {
      this.restart(
        `no picture came within ${seconds(this.o.firstFrameMs)} of starting the camera`,
        this.backoff.next(),
      );
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

export function createSourceRunner(options: RunnerOptions): SourceRunner {
  return new Runner(options);
}
