import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('speaks text with a NUL in it, which no argv can carry, as the words around it', async () => {
    const clip = await engine.synthesize('Hello\u0000 there, friend.', new AbortController().signal);
    expect(clip.seconds).toBeGreaterThan(0.5);
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    const pending = engine.synthesize('a long sentence '.repeat(60), abort.signal);
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('says an engine that writes without end wrote too much, not that it was slow', async () => {
    // A stand-in that writes for ever: the output bound, not the 15 s limit, ends it.
    const dir = mkdtempSync(join(tmpdir(), 'endless-espeak-'));
    const command = join(dir, 'espeak-ng');
    writeFileSync(command, '#!/bin/sh\nexec /usr/bin/yes RIFF\n', { mode: 0o755 });
    try {
      await expect(
        createEspeakEngine({ command }).synthesize('hello', new AbortController().signal),
      ).rejects.toMatchObject({
        code: 'NOT_CONFIGURED',
        message: 'espeak-ng wrote more than 16 MiB of audio',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says so when the engine is missing', async () => {
    const missing = createEspeakEngine({ command: '/nonexistent/espeak-ng' });
    await expect(missing.synthesize('hi', new AbortController().signal)).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      status: 503,
    });
  });
});
