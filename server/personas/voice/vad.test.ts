import { describe, expect, it } from 'vitest';
import { espeakWav, synth, wavPcm, type Piece } from './testing/synthetic-audio.ts';
import { createVad, DEFAULT_VAD, type Utterance } from './vad.ts';

function detect(pcm: Buffer, sampleRate = 16_000, chunkBytes = 1234): Utterance[] {
  const found: Utterance[] = [];
  const vad = createVad({ ...DEFAULT_VAD, sampleRate }, (u) => found.push(u));
  // Odd-sized chunks, as a pipe delivers them: frames must not depend on chunk boundaries.
  for (let at = 0; at < pcm.length; at += chunkBytes) vad.push(pcm.subarray(at, at + chunkBytes));
  vad.flush();
  return found;
}

const spans = (us: Utterance[]) => us.map((u) => [u.startMs, u.endMs, u.speechMs]);

describe('voice activity detection', () => {
  it('hears nothing in silence or in quiet room noise', () => {
    expect(detect(synth([{ silence: 5000 }]))).toEqual([]);
    expect(detect(synth([{ noise: 5000, amplitude: 0.003 }]))).toEqual([]);
  });

  it('cuts tone bursts into utterances, with pre-roll and a short tail', () => {
    const pieces: Piece[] = [{ silence: 1000 }, { tone: 600 }, { silence: 1500 }, { tone: 1000 }, { silence: 1500 }];
    const found = detect(synth(pieces));
    // Opened on the 3rd voiced frame with 200 ms before it; closed 200 ms after the last voiced frame.
    expect(spans(found)).toEqual([
      [800, 1800, 600],
      [2900, 4300, 1000],
    ]);
    expect(found[0]?.pcm.length).toBe(16 * 2 * 1000);
  });

  it('keeps pauses shorter than the hangover inside one utterance', () => {
    const found = detect(synth([{ silence: 500 }, { tone: 400 }, { silence: 500 }, { tone: 400 }, { silence: 2000 }]));
    expect(spans(found)).toEqual([[300, 2000, 1300]]);
  });

  it('drops clicks shorter than the minimum speech', () => {
    expect(
      detect(synth([{ silence: 500 }, { tone: 100 }, { silence: 1000 }, { tone: 200 }, { silence: 1000 }])),
    ).toEqual([]);
  });

  it('hears a tone over room noise', () => {
    const found = detect(
      synth([
        { noise: 2000, amplitude: 0.01 },
        { tone: 800, amplitude: 0.2 },
        { noise: 2000, amplitude: 0.01 },
      ]),
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.speechMs).toBeGreaterThanOrEqual(760);
  });

  it('cuts a sound that never ends at the maximum length, and stops hearing it once the floor has risen', () => {
    const found = detect(synth([{ silence: 300 }, { tone: 40_000 }]));
    expect(found[0]?.endMs).toBe(15_100);
    expect(found).toHaveLength(2);
    expect(found[1]?.startMs).toBe(15_100);
    expect(found[1]!.endMs).toBeLessThan(30_000);
  });

  it('closes an utterance still open at the end of the stream', () => {
    expect(spans(detect(synth([{ silence: 300 }, { tone: 1000 }])))).toEqual([[100, 1300, 1000]]);
  });

  it('hears espeak-ng speech as one utterance, and two sentences apart as two', async () => {
    const one = wavPcm(await espeakWav('Hello robot, please look to the left.'));
    const found = detect(one.pcm, one.sampleRate);
    expect(found).toHaveLength(1);
    const seconds = one.pcm.length / 2 / one.sampleRate;
    expect(found[0]!.speechMs / 1000).toBeGreaterThan(seconds * 0.6);

    const gap = synth([{ silence: 1500 }], one.sampleRate);
    const two = detect(Buffer.concat([gap, one.pcm, gap, one.pcm, gap]), one.sampleRate);
    expect(two).toHaveLength(2);
  });

  it('forgets a half-heard utterance on reset', () => {
    const found: Utterance[] = [];
    const vad = createVad({ ...DEFAULT_VAD, sampleRate: 16_000 }, (u) => found.push(u));
    vad.push(synth([{ silence: 200 }, { tone: 500 }]));
    expect(vad.speaking()).toBe(true);
    vad.reset();
    vad.push(synth([{ silence: 2000 }]));
    vad.flush();
    expect(found).toEqual([]);
  });
});
