import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTranscription, type FakeTranscription } from '../personas/voice/testing/fake-transcription.ts';
import { synth } from '../personas/voice/testing/synthetic-audio.ts';
import { pcm16Wav } from './wav.ts';
import { createOpenAiTranscriber, mostCharactersIn } from './transcriber.ts';
import { fetchThenCollect, startTrickleServer } from '../testing/trickle-server.ts';

let fake: FakeTranscription;
beforeEach(async () => {
  fake = await startFakeTranscription({ key: 'sk-test', script: (r) => `  heard ${r.seconds} s  ` });
});
afterEach(() => fake.close());

const wav = pcm16Wav(synth([{ tone: 750 }]), 16_000);
const signal = () => new AbortController().signal;

describe('OpenAI-compatible transcriber', () => {
  it('uploads the WAV with the model and key, and returns the trimmed text', async () => {
    const t = createOpenAiTranscriber({ baseUrl: `${fake.url}/`, model: 'whisper-1', key: 'sk-test', language: 'en' });
    expect(await t.transcribe(wav, signal())).toBe('heard 0.75 s');
    expect(fake.requests[0]).toMatchObject({
      model: 'whisper-1',
      filename: 'utterance.wav',
      responseFormat: 'json',
      language: 'en',
      sampleRate: 16_000,
    });
  });

  it('refuses an answer longer than the utterance could hold, which would become the prompt', async () => {
    const t = createOpenAiTranscriber({ baseUrl: fake.url, model: 'whisper-1', key: 'sk-test' });
    // 0.75 s of audio: at most 200 + 38 characters.
    expect(mostCharactersIn(wav)).toBe(238);
    fake.setScript(() => 'a'.repeat(238));
    expect(await t.transcribe(wav, signal())).toHaveLength(238);
    fake.setScript(() => `${'a'.repeat(200)} ${'b'.repeat(100_000)}`);
    await expect(t.transcribe(wav, signal())).rejects.toThrow(
      'transcription failed: the answer has 100201 characters, more than this utterance could hold (238)',
    );
  });

  it("reports the service's own error message", async () => {
    const t = createOpenAiTranscriber({ baseUrl: fake.url, model: 'whisper-1', key: 'sk-bad' });
    await expect(t.transcribe(wav, signal())).rejects.toThrow(
      'transcription failed: HTTP 401 Incorrect API key provided.',
    );
    fake.setScript(() => ({ status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded' }));
    const good = createOpenAiTranscriber({ baseUrl: fake.url, model: 'whisper-1', key: 'sk-test' });
    await expect(good.transcribe(wav, signal())).rejects.toThrow('HTTP 429 Rate limit reached');
  });

  it('says when the service cannot be reached, and gives up when aborted', async () => {
    const url = fake.url;
    await fake.close();
    const t = createOpenAiTranscriber({ baseUrl: url, model: 'whisper-1' });
    await expect(t.transcribe(wav, signal())).rejects.toThrow(/transcription service unreachable \(ECONNREFUSED\)/);
    fake = await startFakeTranscription({ script: () => new Promise(() => {}) });
    const hanging = createOpenAiTranscriber({ baseUrl: fake.url, model: 'whisper-1' });
    const controller = new AbortController();
    const pending = hanging.transcribe(wav, controller.signal);
    setTimeout(() => controller.abort(new Error('muted')), 50);
    await expect(pending).rejects.toThrow('muted');
  });

  it('gives up at its deadline when the answer never ends, even when garbage is collected meanwhile', async () => {
    const server = await startTrickleServer('{"text":');
    const t = createOpenAiTranscriber({
      baseUrl: `${server.url}/v1`,
      model: 'whisper-1',
      timeoutMs: 200,
      fetch: fetchThenCollect(),
    });
    try {
      await expect(t.transcribe(wav, signal())).rejects.toThrow(
        'transcription service unreachable (The operation was aborted due to timeout)',
      );
    } finally {
      server.close();
    }
  });
});
