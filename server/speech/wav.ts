/**
 * The one WAV module of both servers: just enough RIFF/WAVE to know how long a clip is, to repair
 * the header espeak-ng writes to a pipe (it cannot seek back, so its RIFF and data sizes are
 * placeholders, 0x7ffff000-ish; the real length is the data actually present, so that wins over
 * the declared size), to read a clip as mono PCM16 (the wheeled voice's spoken answers), and to
 * wrap PCM16 as a WAV file (the transcription upload of both voices, server/speech/transcriber.ts).
 */

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  byteRate: number;
  /** Offset of the first audio byte. */
  dataOffset: number;
  /** Audio bytes actually present (never more than the buffer holds). */
  dataBytes: number;
  seconds: number;
}

export function readWavInfo(wav: Buffer): WavInfo {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'seconds'> | undefined;
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') fmt = readFmt(wav, body);
    if (id === 'data') {
      if (!fmt) throw new Error('WAVE data chunk before its fmt chunk');
      const dataBytes = Math.min(size, wav.length - body);
      return { ...fmt, dataOffset: body, dataBytes, seconds: dataBytes / fmt.byteRate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAVE file has no data chunk');
}

function readFmt(wav: Buffer, at: number): Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'seconds'> {
  if (at + 16 > wav.length) throw new Error('WAVE fmt chunk is truncated');
  const channels = wav.readUInt16LE(at + 2);
  const sampleRate = wav.readUInt32LE(at + 4);
  const byteRate = wav.readUInt32LE(at + 8);
  const bitsPerSample = wav.readUInt16LE(at + 14);
  if (byteRate <= 0 || channels <= 0) throw new Error('WAVE fmt chunk has no byte rate');
  return { sampleRate, channels, bitsPerSample, byteRate };
}

/** A copy trimmed to the audio present, with RIFF and data sizes that match it. */
export function repairWav(wav: Buffer): Buffer {
  const info = readWavInfo(wav);
  const out = Buffer.from(wav.subarray(0, info.dataOffset + info.dataBytes));
  out.writeUInt32LE(out.length - 8, 4);
  out.writeUInt32LE(info.dataBytes, info.dataOffset - 4);
  return out;
}

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

/** PCM16 mono as the canonical 44-byte RIFF/WAVE with true sizes; a trailing half sample is left out. */
export function pcm16Wav(pcm: Buffer, sampleRate: number): Buffer {
  const bytes = pcm.length - (pcm.length % 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(bytes, 40);
  return Buffer.concat([header, pcm.subarray(0, bytes)]);
}
