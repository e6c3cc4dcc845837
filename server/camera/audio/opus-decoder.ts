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

/**
 * Audio written and not yet decoded, at most (16 kHz samples). The decoder holds back one packet;
 * three seconds behind means it hangs or has stopped reading, and its input would otherwise pile
 * up in this process for as long as someone listens.
 */
const MAX_BEHIND = 3 * PCM_SAMPLE_RATE;

export function startOpusDecoder(options: OpusDecoderOptions): OpusDecoder {
  const ogg = createOggOpusWriter({ channels: 1 });
  let written = 0;
  let decoded = 0;
  let ended = false;
  const proc: FfmpegProcess = spawnFfmpeg({
    args: decoderArgs(),
    log: options.log,
    onStdout: (chunk) => {
      decoded += chunk.length / 2;
      options.onPcm(chunk);
    },
    onExit: (reason) => {
      ended = true;
      options.onExit(reason);
    },
    ...(options.ffmpegBinary ? { binary: options.ffmpegBinary } : {}),
  });
  proc.write(ogg.headers());
  return {
    write(opus, samples) {
      if (ended) return;
      written += samples / 3;
      if (written - decoded > MAX_BEHIND) {
        ended = true;
        proc.stop();
        options.onExit(`the decoder fell ${MAX_BEHIND / PCM_SAMPLE_RATE} s behind`);
        return;
      }
      proc.write(ogg.packet(opus, samples));
    },
    close: () => proc.stop(),
  };
}
