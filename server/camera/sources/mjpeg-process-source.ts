/**
 * A camera source that is an ffmpeg process printing MJPEG: each JPEG on its stdout becomes a
 * frame, stamped when it arrives. The device source is one; tests run the same code on
 * ffmpeg's own test picture.
 */
import type { Log } from '../../log.ts';
import { spawnFfmpeg, type FfmpegProcess } from '../ffmpeg.ts';
import type { CameraFrame, CameraSource } from '../frame.ts';
import { createJpegSplitter, jpegSize } from '../jpeg.ts';

export interface MjpegProcessOptions {
  name: string;
  args: string[];
  log: Log;
  /** How long the first picture may take before the start counts as failed (default 5000 ms). */
  startTimeoutMs?: number;
  binary?: string;
}

export function createMjpegProcessSource(o: MjpegProcessOptions): CameraSource {
  let proc: FfmpegProcess | undefined;
  return {
    name: o.name,
    start(onFrame: (frame: CameraFrame) => void, onError: (error: Error) => void) {
      if (proc) return Promise.reject(new Error(`${o.name} already started`));
      let seq = 0;
      return new Promise<void>((resolve, reject) => {
        let started = false;
        const timer = setTimeout(() => {
          proc?.stop();
          proc = undefined;
          reject(new Error(`${o.name}: no picture within ${o.startTimeoutMs ?? 5000} ms`));
        }, o.startTimeoutMs ?? 5000);
        const splitter = createJpegSplitter((jpeg) => {
          const size = jpegSize(jpeg);
          if (!size) return;
          seq += 1;
          onFrame({ jpeg, ...size, capturedAt: Date.now(), seq });
          if (!started) {
            started = true;
            clearTimeout(timer);
            resolve();
          }
        });
        proc = spawnFfmpeg({
          args: o.args,
          log: o.log,
          onStdout: (chunk) => splitter.push(chunk),
          onExit: (reason) => {
            proc = undefined;
            clearTimeout(timer);
            if (started) onError(new Error(`${o.name}: ${reason}`));
            else reject(new Error(`${o.name}: ${reason}`));
          },
          ...(o.binary ? { binary: o.binary } : {}),
        });
      });
    },
    stop() {
      proc?.stop();
      proc = undefined;
      return Promise.resolve();
    },
  };
}
