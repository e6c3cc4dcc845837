/**
 * Synthetic microphone audio for the detector's tests: silence, quiet noise, tone bursts and
 * espeak-ng speech, as PCM16 LE mono at a given rate.
 */
import { execFile } from 'node:child_process';
import { readWavInfo, repairWav } from '../../../speech/wav.ts';

export type Piece =
  { silence: number } | { tone: number; hz?: number; amplitude?: number } | { noise: number; amplitude: number };

/** A deterministic pseudo-random sequence, so a noise test never flakes. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Concatenates pieces (durations in ms) into PCM16 LE mono. */
export function synth(pieces: Piece[], sampleRate = 16_000): Buffer {
  const random = lcg(42);
  const out: number[] = [];
  for (const piece of pieces) {
    const ms = 'silence' in piece ? piece.silence : 'tone' in piece ? piece.tone : piece.noise;
    const n = Math.round((sampleRate * ms) / 1000);
    for (let i = 0; i < n; i += 1) {
      if ('silence' in piece) out.push(0);
      else if ('tone' in piece)
        out.push((piece.amplitude ?? 0.3) * Math.sin((2 * Math.PI * (piece.hz ?? 440) * i) / sampleRate));
      else out.push(piece.amplitude * (random() * 2 - 1));
    }
  }
  const pcm = Buffer.alloc(out.length * 2);
  out.forEach((v, i) => pcm.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(v * 32767))), i * 2));
  return pcm;
}

/** espeak-ng's WAV of `text` (22.05 kHz mono, header repaired). */
export function espeakWav(text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('espeak-ng', ['--stdout', '--', text], { encoding: 'buffer', maxBuffer: 16 << 20 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(repairWav(stdout));
    });
  });
}

/** The PCM of a WAV and its rate. */
export function wavPcm(wav: Buffer): { pcm: Buffer; sampleRate: number } {
  const info = readWavInfo(wav);
  return { pcm: wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes), sampleRate: info.sampleRate };
}
