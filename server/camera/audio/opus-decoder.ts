/**
 * Opus packets → PCM16 LE mono 16 kHz (what the voice listener and speech-to-text services
 * take), by one long-running ffmpeg reading Ogg Opus on stdin (ogg-opus-writer.ts). libopus
 * decodes, not ffmpeg's own Opus decoder, because libopus conceals a packet that is only a TOC
 * byte (opus-toc.ts), which is how a lost packet is stood in for. `-flush_packets 1` hands
 * each decoded packet on at once instead of filling ffmpeg's output buffer first.
 */
import type { Log } from '../../log.ts';
import { spawnFfmpeg, type FfmpegProcess } from '../ffmpeg.ts';
import { createOggOpusWriter } from './ogg-opus-writer.ts';

export const PCM_SAMPLE_RATE = 16_000;

export function decoderArgs(): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...['-probesize', '32', '-analyzeduration', '0', '-fflags', 'nobuffer'],
    ...['-f', 'ogg', '-c:a', 'libopus', '-i', 'pipe:0'],
    ...['-vn', '-ac', '1', '-ar', String(PCM_SAMPLE_RATE), '-f', 's16le', '-flush_packets', '1', 'pipe:1'],
  ];
}

export interface OpusDecoderOptions {
  log: Log;
  onPcm(chunk: Buffer): void;
  /** The process ended by itself, or could not start. */
  onExit(reason: string): void;
  ffmpegBinary?: string;
}

export interface OpusDecoder {
  /** One Opus packet of `samples` 48 kHz samples. */
  write(opus: Buffer, samples: number): void;
  close(): void;
}

export function startOpusDecoder(options: OpusDecoderOptions): OpusDecoder {
  const ogg = createOggOpusWriter({ channels: 1 });
  const proc: FfmpegProcess = spawnFfmpeg({
    args: decoderArgs(),
    log: options.log,
    onStdout: options.onPcm,
    onExit: options.onExit,
    ...(options.ffmpegBinary ? { binary: options.ffmpegBinary } : {}),
  });
  proc.write(ogg.headers());
  return {
    write: (opus, samples) => proc.write(ogg.packet(opus, samples)),
    close: () => proc.stop(),
  };
}
