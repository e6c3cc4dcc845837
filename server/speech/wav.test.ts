import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pcm16Wav, pcmFromWav, readWavInfo, repairWav } from './wav.ts';

/** A canonical 16-bit mono WAV of `samples` samples at `rate`, with chosen declared sizes. */
function wav(samples: number, rate: number, declared?: { riff: number; data: number }): Buffer {
  const data = samples * 2;
  const buf = Buffer.alloc(44 + data);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(declared?.riff ?? 36 + data, 4);
  buf.write('WAVEfmt ', 8, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(declared?.data ?? data, 40);
  return buf;
}

describe('WAV header', () => {
  it('reads the length of a well-formed clip', () => {
    expect(readWavInfo(wav(22050, 22050))).toMatchObject({
      sampleRate: 22050,
      channels: 1,
      bitsPerSample: 16,
      dataBytes: 44100,
      seconds: 1,
    });
  });

  it('trusts the data present over the placeholder sizes of a streamed header', () => {
    const streamed = wav(11025, 22050, { riff: 0x7ffff024, data: 0x7ffff000 });
    expect(readWavInfo(streamed).seconds).toBe(0.5);
    const fixed = repairWav(streamed);
    expect(fixed.readUInt32LE(4)).toBe(fixed.length - 8);
    expect(fixed.readUInt32LE(40)).toBe(22050);
  });

  it('repairs what espeak-ng writes to a pipe', () => {
    const raw = execFileSync('espeak-ng', ['--stdout', '--', 'testing one two three']);
    expect(raw.readUInt32LE(40)).toBeGreaterThan(raw.length); // the placeholder
    const fixed = repairWav(raw);
    expect(readWavInfo(fixed).dataBytes).toBe(raw.length - 44);
  });

  it('refuses what is not a WAV', () => {
    expect(() => readWavInfo(Buffer.from('ID3 not a wave file'))).toThrow(/not a RIFF\/WAVE/);
    const noData = wav(10, 8000).subarray(0, 36);
    expect(() => readWavInfo(noData)).toThrow(/no data chunk/);
  });
});

describe('PCM16 in and out of WAV', () => {
  it('wraps PCM16 with true sizes, leaving out a trailing half sample, and reads it back', () => {
    const pcm = Buffer.from([1, 0, 2, 0, 3]);
    const file = pcm16Wav(pcm, 16_000);
    expect(readWavInfo(file)).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataBytes: 4 });
    expect(file.readUInt32LE(4)).toBe(file.length - 8);
    expect(pcmFromWav(file)).toEqual({ pcm: pcm.subarray(0, 4), rate: 16_000 });
  });

  it('averages stereo to mono and refuses other sample sizes', () => {
    const stereo = wav(2, 8000);
    stereo.writeUInt16LE(2, 22);
    stereo.writeUInt32LE(8000 * 4, 28);
    stereo.writeUInt16LE(4, 32);
    stereo.writeInt16LE(100, 44);
    stereo.writeInt16LE(300, 46);
    expect(pcmFromWav(stereo).pcm.readInt16LE(0)).toBe(200);
    const eightBit = wav(2, 8000);
    eightBit.writeUInt16LE(8, 34);
    expect(() => pcmFromWav(eightBit)).toThrow(/expected 16-bit audio, got 8-bit/);
  });
});
