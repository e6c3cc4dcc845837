/**
 * A camera source that is an ffmpeg process printing MJPEG: each JPEG on its stdout becomes a
 * frame, stamped when it arrives. The device source is one; tests run the same code on
 * ffmpeg's own test picture.
 */
import type { Log } from '../../log.ts';
import { spawnFfmpeg, type FfmpegProcess } from '../ffmpeg.ts';
import type { CameraFrame, CameraSource } from '../frame.ts';
import { createJpegSplitter, jpegSize, type JpegSplitter } from '../jpeg.ts';

export interface MjpegProcessOptions {
  name: string;
  args: string[];
  log: Log;
  /** How long the first picture may take before the start counts as failed (default 5000 ms). */
  startTimeoutMs?: number;
  binary?: string;
}

class MjpegProcessSource implements CameraSource {
  readonly name: string;
  private proc: FfmpegProcess | undefined;

  constructor(private readonly o: MjpegProcessOptions) {
    this.name = o.name;
  }

  /** Resolves at the first picture; rejects if ffmpeg ends or stays silent before it. */
  start(onFrame: (frame: CameraFrame) => void, onError: (error: Error) => void): Promise<void> {
    if (this.proc) return Promise.reject(new Error(`${this.name} already started`));
    const timeoutMs = this.o.startTimeoutMs ?? 5000;
    return new Promise<void>((resolve, reject) => {
      let started = false;
      const timer = setTimeout(() => {
        void this.stop();
        reject(new Error(`${this.name}: no picture within ${timeoutMs} ms`));
      }, timeoutMs);
      const frames = this.framer(onFrame, () => {
        started = true;
        clearTimeout(timer);
        resolve();
      });
      this.proc = spawnFfmpeg({
        args: this.o.args,
        log: this.o.log,
        onStdout: (chunk) => frames.push(chunk),
        onExit: (reason) => {
          this.proc = undefined;
          clearTimeout(timer);
          const error = new Error(`${this.name}: ${reason}`);
          if (started) onError(error);
          else reject(error);
        },
        ...(this.o.binary ? { binary: this.o.binary } : {}),
      });
    });
  }

  stop(): Promise<void> {
    this.proc?.stop();
    this.proc = undefined;
    return Promise.resolve();
  }

  /** Cuts stdout into JPEGs and numbers them; `first` runs at the first one. */
  private framer(onFrame: (frame: CameraFrame) => void, first: () => void): JpegSplitter {
    let seq = 0;
    return createJpegSplitter((jpeg) => {
      const size = jpegSize(jpeg);
      if (!size) return;
      seq += 1;
      onFrame({ jpeg, ...size, capturedAt: Date.now(), seq });
      if (seq === 1) first();
    });
  }
}

export function createMjpegProcessSource(options: MjpegProcessOptions): CameraSource {
  return new MjpegProcessSource(options);
}
