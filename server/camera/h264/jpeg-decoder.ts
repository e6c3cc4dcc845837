/**
 * A long-running H.264 → JPEG decoder: Annex-B access units on ffmpeg's stdin, one JPEG per
 * picture on its stdout (image2pipe). Two details keep it at zero frames of delay:
 * - each access unit is followed by an access unit delimiter, so ffmpeg's H.264 parser knows
 *   the picture is complete now instead of when the next one starts;
 * - the output pixel format is set (yuvj420p), and the quality is pinned with qmin = qmax:
 *   with ffmpeg 5's command line, an implicit conversion filter or `-q:v` each held every
 *   picture back until the next one arrived (measured: +1 frame).
 * The decoder starts on a keyframe; the pictures come out in the order they went in (no
 * B-frames in constrained baseline), which is how each JPEG finds its capture time.
 */
import type { Log } from '../../log.ts';
import { spawnFfmpeg } from '../ffmpeg.ts';
import type { H264AccessUnit } from '../frame.ts';
import { createJpegSplitter } from '../jpeg.ts';
import { AUD_NAL, START_CODE } from './nal.ts';

export interface DecodeMeta {
  seq: number;
  capturedAt: number;
  /** False for backlog pictures decoded only to reach the current one. */
  emit: boolean;
}

export interface JpegDecoderOptions {
  log: Log;
  onJpeg(jpeg: Buffer, meta: DecodeMeta): void;
  onExit(reason: string): void;
  /** mjpeg qscale, 2 (best) .. 31; default 5. */
  quality?: number;
  binary?: string;
}

export interface JpegDecoder {
  /** False when the decoder has fallen too far behind and should be replaced. */
  decode(au: H264AccessUnit, meta: DecodeMeta): boolean;
  stop(): void;
}

/** Three seconds of pictures at 15 fps waiting in the decoder means it cannot keep up. */
const MAX_BEHIND = 45;
const DELIMITER = Buffer.concat([START_CODE, AUD_NAL]);

export function decoderArgs(quality = 5): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-probesize', '32', '-analyzeduration', '0', '-threads', '1'],
    ...['-f', 'h264', '-i', 'pipe:0', '-vsync', 'passthrough'],
    ...['-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-qmin', String(quality), '-qmax', String(quality)],
    ...['-f', 'image2pipe', '-flush_packets', '1', 'pipe:1'],
  ];
}

export function startJpegDecoder(options: JpegDecoderOptions): JpegDecoder {
  const queue: DecodeMeta[] = [];
  const splitter = createJpegSplitter((jpeg) => {
    const meta = queue.shift();
    if (meta?.emit) options.onJpeg(jpeg, meta);
  });
  const proc = spawnFfmpeg({
    args: decoderArgs(options.quality),
    log: options.log,
    onStdout: (chunk) => splitter.push(chunk),
    onExit: options.onExit,
    ...(options.binary ? { binary: options.binary } : {}),
  });
  return {
    decode(au, meta) {
      if (queue.length >= MAX_BEHIND) return false;
      queue.push(meta);
      proc.write(Buffer.concat([au.data, DELIMITER]));
      return true;
    },
    stop: () => proc.stop(),
  };
}
