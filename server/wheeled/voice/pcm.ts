/**
 * 16-bit little-endian mono PCM, the one audio format of /ws/voice in both directions
 * (docs/contract.md, "Events": binary PCM16 frames up, base64 audio frames down at voice_meta's
 * rate). Pure helpers: linear resampling and cutting into frames; WAV in and out is
 * server/speech/wav.ts.
 */

/** Linear-interpolation resampling; enough for speech, and exact when the rates match. */
export function resamplePcm16(pcm: Buffer, from: number, to: number): Buffer {
  if (from === to) return pcm;
  const inCount = Math.floor(pcm.length / 2);
  const outCount = Math.floor((inCount * to) / from);
  const out = Buffer.alloc(outCount * 2);
  for (let i = 0; i < outCount; i += 1) {
    const pos = (i * from) / to;
    const j = Math.floor(pos);
    const a = pcm.readInt16LE(Math.min(j, inCount - 1) * 2);
    const b = pcm.readInt16LE(Math.min(j + 1, inCount - 1) * 2);
    out.writeInt16LE(Math.round(a + (b - a) * (pos - j)), i * 2);
  }
  return out;
}

/** Cuts PCM16 into frames of `ms` milliseconds (the last may be shorter). */
export function pcmFrames(pcm: Buffer, rate: number, ms = 100): Buffer[] {
  const size = Math.max(2, Math.round((rate * ms) / 1000) * 2);
  const frames: Buffer[] = [];
  for (let i = 0; i < pcm.length; i += size) frames.push(pcm.subarray(i, Math.min(pcm.length, i + size)));
  return frames;
}
