/**
 * One H.264 encoder per camera session, as webrtcsink runs one per consumer on hosts without a
 * hardware encoder (docs/daemon.md, "Media"): ffmpeg/libx264 reading raw RGBA frames on stdin,
 * ultrafast + zerolatency so each frame leaves at once, constrained baseline to match the
 * profile-level-id the SDP offers. Each encoder starts on a keyframe, so a new consumer sees a
 * picture at once.
 */
import { spawn } from 'node:child_process';
import type { Log } from '../log.ts';
import { createFlvReader, type EncodedAccessUnit } from './flv-reader.ts';

export interface EncoderOptions {
  width: number;
  height: number;
  fps: number;
  /** Frames between keyframes: a consumer that lost packets recovers by the next one. */
  gop: number;
  log: Log;
  onAccessUnit(au: EncodedAccessUnit): void;
  /** The process ended or could not start. */
  onExit(reason: string): void;
}

export interface H264Encoder {
  /** Hands one RGBA frame to the encoder; false when it is still busy and the frame is skipped. */
  encode(rgba: Buffer): boolean;
  close(): void;
}

/** Frames written but not yet taken by ffmpeg; beyond this the renderer's frame is dropped. */
const MAX_IN_FLIGHT = 2;

export function encoderArgs(o: Pick<EncoderOptions, 'width' | 'height' | 'fps' | 'gop'>): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error'],
    ...[
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-s',
      `${o.width}x${o.height}`,
      '-framerate',
      String(o.fps),
      '-i',
      'pipe:0',
    ],
    ...['-an', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-threads', '1'],
    // 42e01f in the SDP: constrained baseline, level 3.1.
    ...['-profile:v', 'baseline', '-level:v', '3.1', '-pix_fmt', 'yuv420p', '-g', String(o.gop), '-bf', '0'],
    ...['-crf', '26', '-maxrate', '1500k', '-bufsize', '500k'],
    ...['-vsync', 'passthrough', '-flush_packets', '1', '-f', 'flv', 'pipe:1'],
  ];
}

export function startH264Encoder(options: EncoderOptions): H264Encoder {
  const proc = spawn('ffmpeg', encoderArgs(options), { stdio: ['pipe', 'pipe', 'pipe'] });
  const reader = createFlvReader(options.onAccessUnit);
  let inFlight = 0;
  let closed = false;
  let exited = false;
  const exit = (reason: string): void => {
    if (exited) return;
    exited = true;
    if (!closed) options.onExit(reason);
  };
  proc.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
  proc.stderr.on('data', (chunk: Buffer) => options.log.debug('encoder says', { text: chunk.toString('utf8').trim() }));
  // EPIPE after the process died is reported through 'exit'; nothing more to do here.
  proc.stdin.on('error', () => {});
  proc.on('error', (error) => exit(`ffmpeg could not start: ${error.message}`));
  proc.on('exit', (code, signal) => exit(`ffmpeg ended (${signal ?? `code ${String(code)}`})`));

  return {
    encode(rgba) {
      if (closed || exited || inFlight >= MAX_IN_FLIGHT) return false;
      inFlight += 1;
      proc.stdin.write(rgba, () => {
        inFlight -= 1;
      });
      return true;
    },
    close() {
      if (closed) return;
      closed = true;
      proc.stdin.destroy();
      proc.kill('SIGKILL');
    },
  };
}
