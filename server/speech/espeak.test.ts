import { describe, expect, it } from 'vitest';
import { createEspeakEngine } from './espeak.ts';
import { readWavInfo } from './wav.ts';

describe('espeak-ng engine', () => {
  const engine = createEspeakEngine();

  it('returns a repaired WAV and its length', async () => {
    const clip = await engine.synthesize('The quick brown fox jumps over the lazy dog.', new AbortController().signal);
    expect(engine.name).toBe('espeak-ng');
    expect(clip.seconds).toBeGreaterThan(1.5);
    expect(clip.seconds).toBeLessThan(6);
    expect(readWavInfo(clip.wav).seconds).toBe(clip.seconds);
    expect(clip.wav.readUInt32LE(4)).toBe(clip.wav.length - 8);
  });

  it('speaks text that looks like an option, and shell syntax, as plain words', async () => {
    const option = await engine.synthesize('--help', new AbortController().signal);
    expect(option.seconds).toBeGreaterThan(0.2);
    const shell = await engine.synthesize('$(touch /tmp/pwned); `id` && echo hi', new AbortController().signal);
    expect(shell.seconds).toBeGreaterThan(0.5);
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    const pending = engine.synthesize('a long sentence '.repeat(60), abort.signal);
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('says so when the engine is missing', async () => {
    const missing = createEspeakEngine({ command: '/nonexistent/espeak-ng' });
    await expect(missing.synthesize('hi', new AbortController().signal)).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      status: 503,
    });
  });
});
