/**
 * Audio for /ws/voice in the page: the microphone's float samples become PCM16 at the rate the
 * server announced in voice_meta (linear resampling), and the server's base64 PCM16 frames
 * become float samples to play. Pure functions; the Web Audio plumbing is in voice.svelte.ts.
 */

/** Float samples (−1…1) at `from` Hz as little-endian PCM16 at `to` Hz. */
export function floatToPcm16(samples: Float32Array, from: number, to: number): ArrayBuffer {
  const count = from === to ? samples.length : Math.floor((samples.length * to) / from);
  const view = new DataView(new ArrayBuffer(count * 2));
  for (let i = 0; i < count; i += 1) {
    const pos = from === to ? i : (i * from) / to;
    const j = Math.floor(pos);
    const a = samples[j] ?? 0;
    const b = samples[Math.min(j + 1, samples.length - 1)] ?? a;
    const value = Math.max(-1, Math.min(1, a + (b - a) * (pos - j)));
    view.setInt16(i * 2, Math.round(value < 0 ? value * 0x8000 : value * 0x7fff), true);
  }
  return view.buffer;
}

/** A base64 PCM16 frame as float samples. */
export function pcm16Base64ToFloat(data: string): Float32Array {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  const out = new Float32Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < out.length; i += 1) out[i] = view.getInt16(i * 2, true) / 0x8000;
  return out;
}
