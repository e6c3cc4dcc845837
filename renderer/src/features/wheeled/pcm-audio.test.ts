import { describe, expect, it } from 'vitest';
import { floatToPcm16, pcm16Base64ToFloat } from './pcm-audio.ts';

describe('voice audio in the page', () => {
  it('turns microphone floats into PCM16 at the announced rate', () => {
    const samples = new Float32Array(48_000).fill(0.5);
    const pcm = floatToPcm16(samples, 48_000, 22_050);
    expect(pcm.byteLength).toBe(22_050 * 2);
    expect(new DataView(pcm).getInt16(0, true)).toBe(Math.round(0.5 * 0x7fff));
    expect(new DataView(floatToPcm16(new Float32Array([-1, 2]), 16_000, 16_000)).getInt16(0, true)).toBe(-0x8000);
  });

  it('plays base64 PCM16 frames as floats', () => {
    const bytes = new Uint8Array(floatToPcm16(new Float32Array([0, -0.5, 0.25]), 8000, 8000));
    const floats = pcm16Base64ToFloat(btoa(String.fromCharCode(...bytes)));
    expect(Array.from(floats).map((v) => Math.round(v * 100) / 100)).toEqual([0, -0.5, 0.25]);
  });
});
