import { describe, expect, it } from 'vitest';
import type { MessengerPersonaView } from '../../../../server/contract/index.ts';
import {
  chatName,
  messengerBody,
  SOURCE_CHOICES,
  sourceChoice,
  sourceFor,
  sourceProblem,
  statusLine,
  voiceBody,
  voiceDraft,
  waitingChats,
} from './personas-format.ts';

const messenger = (allowed: number[]): MessengerPersonaView => ({
  settings: { enabled: true, apiBaseUrl: 'https://api.telegram.org', hasToken: true, allowedChats: allowed },
  status: {
    state: 'pairing',
    detail: '',
    bot: null,
    pairing: allowed.length === 0,
    seenChats: [
      { id: 7, title: 'Ada', type: 'private', lastText: 'hi', at: '' },
      { id: -9, title: 'Lab', type: 'group', lastText: '/start', at: '' },
    ],
    handled: 0,
    lastError: null,
    failures: 0,
    retryAt: null,
  },
});

describe('personas format', () => {
  it('writes status lines, with a countdown instead of the frozen retry delay', () => {
    expect(statusLine({ state: 'listening', detail: 'listening on microphone default (alsa)', retryAt: null }, 0)).toBe(
      'listening on microphone default (alsa)',
    );
    const failed = {
      state: 'failed',
      detail: 'ffmpeg ended (code 1); retrying in 20 s',
      retryAt: new Date(12_000).toISOString(),
    };
    expect(statusLine(failed, 0)).toBe('ffmpeg ended (code 1) (next try in 12 s)');
    expect(statusLine(failed, 11_500)).toBe('ffmpeg ended (code 1) (next try in 1 s)');
  });

  it('lists the chats waiting to be allowed and names allowed ones', () => {
    expect(waitingChats(messenger([])).map((c) => c.id)).toEqual([7, -9]);
    expect(waitingChats(messenger([7])).map((c) => c.id)).toEqual([-9]);
    expect(chatName(7, messenger([]).status.seenChats)).toBe('Ada (7)');
    expect(chatName(12, [])).toBe('12');
  });

  it('sends a secret only when typed, or "" to clear it', () => {
    const draft = voiceDraft({
      enabled: true,
      source: 'device',
      muted: false,
      transcription: { baseUrl: 'u', model: 'm', language: '', hasKey: true },
    });
    expect(voiceBody(draft)).toEqual({ source: 'device', transcription: { baseUrl: 'u', model: 'm', language: '' } });
    expect(voiceBody({ ...draft, keyAction: 'replace', key: 'sk-1' })).toMatchObject({
      transcription: { key: 'sk-1' },
    });
    expect(voiceBody({ ...draft, keyAction: 'clear', key: 'x' })).toMatchObject({ transcription: { key: '' } });
    expect(
      messengerBody({ apiBaseUrl: ' https://api.telegram.org ', token: ' 1:abc ', tokenAction: 'replace' }),
    ).toEqual({
      apiBaseUrl: 'https://api.telegram.org',
      token: '1:abc',
    });
    expect(messengerBody({ apiBaseUrl: 'x', token: '', tokenAction: 'keep' })).toEqual({ apiBaseUrl: 'x' });
  });

  it('checks the source field', () => {
    expect(['device', 'device:USB Mic', 'alsa:hw:1,0', 'pulse:default', 'file:/tmp/a.wav'].map(sourceProblem)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(sourceProblem('daemon')).toBeNull();
    expect(sourceProblem('robot')).toMatch(/^Use daemon, device/);
  });

  it('maps the source menu to settings and back', () => {
    expect(['daemon', 'device', 'alsa:hw:1,0', ''].map(sourceChoice)).toEqual(['daemon', 'device', 'other', 'other']);
    expect(sourceFor('daemon', 'alsa:x')).toBe('daemon');
    expect(sourceFor('other', 'alsa:x')).toBe('alsa:x');
    expect(sourceFor('other', 'daemon')).toBe('');
    expect(SOURCE_CHOICES.find((c) => c.value === 'daemon')?.label).toBe('Robot microphone (daemon)');
  });
});
