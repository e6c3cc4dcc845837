/** The level of a stretch of PCM16 (the detector's energy); the WAV wrapper is server/speech/wav.ts. */

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
