/**
 * One Opus encoder per camera session that accepted audio, as webrtcsink runs one per consumer
 * (docs/daemon.md, "Media"): ffmpeg/libopus reading the microphone's PCM16 mono 48 kHz on stdin and
 * writing Ogg Opus on stdout, 20 ms frames with in-band FEC like the daemon's, one page per
 * packet (`-page_duration`) and flushed at once, so each packet leaves as soon as it is encoded.
 */
import { spawn } from 'node:child_process';
import type { Log } from '../log.ts';
import { MIC_RATE } from './microphone.ts';
import { createOggReader } from './ogg-reader.ts';

export function opusEncoderArgs(): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-f', 's16le', '-ac', '1', '-ar', String(MIC_RATE), '-i', 'pipe:0'],
    ...['-c:a', 'libopus', '-application', 'voip', '-frame_duration', '20', '-b:a', '32k'],
    ...['-fec', '1', '-packet_loss', '10'],
    ...['-f', 'ogg', '-page_duration', '20000', '-flush_packets', '1', 'pipe:1'],
  ];
}

export interface OpusEncoder {
  /** Hands 20 ms of PCM to the encoder. */
  encode(pcm: Buffer): void;
  close(): void;
}

export function startOpusEncoder(options: {
  log: Log;
  onPacket(opus: Buffer): void;
  onExit(reason: string): void;
}): OpusEncoder {
  const proc = spawn('ffmpeg', opusEncoderArgs(), { stdio: ['pipe', 'pipe', 'pipe'] });
  // The first two packets of an Ogg Opus stream are its headers (RFC 7845 §3).
  const reader = createOggReader((packet) => packet.index >= 2 && options.onPacket(packet.data));
  let closed = false;
  let exited = false;
  const exit = (reason: string): void => {
    if (exited) return;
    exited = true;
    if (!closed) options.onExit(reason);
  };
  proc.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
  proc.stderr.on('data', (chunk: Buffer) => options.log.debug('opus encoder says', { text: chunk.toString('utf8') }));
  proc.stdin.on('error', () => {});
  proc.on('error', (error) => exit(`ffmpeg could not start: ${error.message}`));
  proc.on('exit', (code, signal) => exit(`opus encoder ended (${signal ?? `code ${String(code)}`})`));
  return {
    encode(pcm) {
      if (!closed && !exited) proc.stdin.write(pcm);
    },
    close() {
      if (closed) return;
      closed = true;
      proc.stdin.destroy();
      proc.kill('SIGKILL');
    },
  };
}
