/**
 * GET /api/stream: multipart/x-mixed-replace MJPEG, one part per JPEG frame. Each viewer is a
 * hub subscriber whose delivery finishes when its socket drained, so a viewer that reads
 * slowly (or not at all) gets fewer frames and holds at most one in its socket buffer; the
 * others are not slowed. The stream ends when the viewer goes, the hub stops, or a part has
 * waited too long for a viewer that takes nothing.
 */
import type { ServerResponse } from 'node:http';
import type { TimerClock } from '../clock.ts';
import type { FrameHub } from './frame-hub.ts';
import type { CameraFrame } from './frame.ts';

export const MJPEG_BOUNDARY = 'cockpit-frame';

export const MJPEG_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': `multipart/x-mixed-replace; boundary=${MJPEG_BOUNDARY}`,
  'Cache-Control': 'no-store, no-cache, must-revalidate',
  Pragma: 'no-cache',
  // Proxies (nginx) must not buffer a live stream.
  'X-Accel-Buffering': 'no',
});

/** The part header; capture time and number let a client measure latency and gaps. */
export function partHeader(frame: CameraFrame & { jpeg: Buffer }): string {
  return (
    `--${MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${frame.jpeg.length}\r\n` +
    `X-Captured-At: ${frame.capturedAt}\r\nX-Frame-Seq: ${frame.seq}\r\n\r\n`
  );
}

export interface MjpegStall {
  clock: TimerClock;
  /** A part not taken within this long ends the stream. */
  ms: number;
}

/**
 * Resolves when the viewer has taken the part. A viewer that takes nothing for `stall.ms` is
 * gone without saying so (out of range, or holding the connection unread): the kernel would
 * keep its socket for many minutes, or for ever, and the stream its JPEG subscription with it.
 */
function drained(res: ServerResponse, stall: MjpegStall): Promise<void> {
  return new Promise((resolve, reject) => {
    const cancel = stall.clock.schedule(() => {
      done();
      res.destroy();
      reject(new Error(`viewer took nothing for ${stall.ms} ms`));
    }, stall.ms);
    const done = (): void => {
      cancel();
      res.off('drain', onDrain);
      res.off('close', onClose);
    };
    const onDrain = (): void => {
      done();
      resolve();
    };
    const onClose = (): void => {
      done();
      reject(new Error('viewer gone'));
    };
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** Takes over the response until the viewer leaves; resolves then. */
export function serveMjpeg(hub: FrameHub, res: ServerResponse, stall: MjpegStall): Promise<void> {
  res.writeHead(200, MJPEG_HEADERS);
  res.flushHeaders();
  return new Promise((resolve) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      subscription.close();
      if (!res.writableEnded) res.end();
      resolve();
    };
    const subscription = hub.subscribe(
      'jpeg',
      async (frame) => {
        if (!frame.jpeg) return;
        if (res.destroyed || res.writableEnded) throw new Error('viewer gone');
        res.cork();
        res.write(partHeader({ ...frame, jpeg: frame.jpeg }));
        res.write(frame.jpeg);
        const room = res.write('\r\n');
        res.uncork();
        if (!room) await drained(res, stall);
      },
      finish,
    );
    res.once('close', finish);
  });
}
