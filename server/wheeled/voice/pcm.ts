/**
 * 16-bit little-endian mono PCM, the one audio format of /ws/voice in both directions
 * (docs/contract.md, "Events": binary PCM16 frames up, base64 audio frames down at voice_meta's
 * rate). Pure helpers: WAV in and out, linear resampling, and cutting into frames.
 */
import { readWavInfo } from '../../speech/wav.ts';

/** The mono PCM16 of a WAV file (stereo is averaged); throws for other sample sizes. */
export function pcmFromWav(wav: Buffer): { pcm: Buffer; rate: number } {
  const info = readWavInfo(wav);
  if (info.bitsPerSample !== 16) throw new Error(`expected 16-bit audio, got ${info.bitsPerSample}-bit`);
  const data = wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes - (info.dataBytes % (2 * info.channels)));
  if (info.channels === 1) return { pcm: Buffer.from(data), rate: info.sampleRate };
  const frames = data.length / (2 * info.channels);
  const out = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i += 1) {
    let sum = 0;
    for (let c = 0; c < info.channels; c += 1) sum += data.readInt16LE((i * info.channels + c) * 2);
    out.writeInt16LE(Math.round(sum / info.channels), i * 2);
  }
  return { pcm: out, rate: info.sampleRate };
}

/** A WAV file around mono PCM16 (for a transcription upload). */
export function wavFromPcm(pcm: Buffer, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

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
