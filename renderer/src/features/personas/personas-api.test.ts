import { describe, expect, it } from 'vitest';
import { readPersonas } from './personas-api.ts';

describe('personas view reader', () => {
  it('reads the documented view and refuses something else', () => {
    const view = readPersonas({
      voice: {
        settings: {
          enabled: true,
          source: 'device',
          muted: false,
          transcription: { baseUrl: 'u', model: 'whisper-1', language: '', hasKey: true },
        },
        status: {
          state: 'listening',
          detail: 'listening',
          source: 'microphone default (alsa)',
          utterances: 2,
          lastTranscript: { text: 'hi', at: 't' },
          lastError: null,
          failures: 0,
          retryAt: null,
        },
      },
      messenger: {
        settings: { enabled: true, apiBaseUrl: 'https://api.telegram.org', hasToken: true, allowedChats: [1, 'x'] },
        status: {
          state: 'pairing',
          detail: 'd',
          bot: { username: 'b', name: 'B' },
          pairing: true,
          seenChats: [{ id: 5, title: 'Ada' }, { title: 'no id' }],
          handled: 0,
          lastError: null,
          failures: 0,
          retryAt: null,
        },
      },
    });
    expect(view?.voice.status.lastTranscript).toEqual({ text: 'hi', at: 't' });
    expect(view?.messenger.settings.allowedChats).toEqual([1]);
    expect(view?.messenger.status.seenChats).toEqual([{ id: 5, title: 'Ada', type: '', lastText: '', at: '' }]);
    expect(readPersonas({ voice: {}, messenger: {} })).toBeNull();
    expect(readPersonas(null)).toBeNull();
  });
});
