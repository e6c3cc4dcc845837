/**
 * Just enough RIFF/WAVE to know how long a clip is, and to repair the header espeak-ng writes
 * to a pipe: it cannot seek back, so its RIFF and data sizes are placeholders (0x7ffff000-ish).
 * The real length is the data actually present, so that wins over the declared size.
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
