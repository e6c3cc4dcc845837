/**
 * PCM16 mono as a WAV file (the transcription upload) and the level of a stretch of PCM
 * (the detector's energy). The header is the canonical 44-byte RIFF/WAVE with true sizes.
 */

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

/** Digital silence has no level in dB; this stands in for it. */
export const SILENCE_DB = -100;

/** RMS level of PCM16 LE samples in dBFS (0 = full scale). */
export function levelDb(pcm: Buffer): number {
  const samples = Math.floor(pcm.length / 2);
  if (samples === 0) return SILENCE_DB;
  let sum = 0;
  for (let i = 0; i < samples; i += 1) {
    const s = pcm.readInt16LE(i * 2) / 32768;
    sum += s * s;
  }
  const rms = Math.sqrt(sum / samples);
  return rms > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(rms)) : SILENCE_DB;
}
