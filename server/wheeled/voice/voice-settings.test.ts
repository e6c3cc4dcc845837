import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createVoiceSettings, type VoiceSettings } from './voice-settings.ts';

let dir: { dir: string; cleanup: () => Promise<void> };
let settings: VoiceSettings;

beforeEach(async () => {
  dir = await makeTempDir();
  settings = createVoiceSettings({ dataDir: dir.dir, log: silentLog });
  await settings.load();
});
afterEach(() => dir.cleanup());

describe('wheeled voice settings', () => {
  it('start offline with neither a realtime model nor a transcription endpoint', () => {
    expect(settings.view()).toEqual({ provider: 'offline', realtime: null, transcription: null });
  });

  it('take the same transcription section as the desktop listener, with the key kept on the robot', async () => {
    await settings.update({ transcription: { baseUrl: 'http://127.0.0.1:9000/v1/', key: 'sk-stt' } });
    expect(settings.view().transcription).toEqual({
      baseUrl: 'http://127.0.0.1:9000/v1',
      model: 'whisper-1',
      language: '',
      hasKey: true,
    });
    expect(await readFile(join(dir.dir, 'wheeled-voice.json'), 'utf8')).toContain('sk-stt');
    expect(JSON.stringify(settings.view())).not.toContain('sk-stt');
    await settings.update({ transcription: null });
    expect(settings.view().transcription).toBeNull();
  });

  it('keep a realtime key for the same endpoint only, and keep a query in its URL', async () => {
    await settings.update({
      provider: 'realtime',
      realtime: { url: 'wss://rt.example/v1/realtime?deployment=a', key: 'rt' },
    });
    expect(settings.view()).toMatchObject({
      provider: 'realtime',
      realtime: { url: 'wss://rt.example/v1/realtime?deployment=a', model: 'gpt-4o-realtime-preview', hasKey: true },
    });
    await settings.update({ realtime: { voice: 'verse' } });
    expect(settings.view().realtime).toMatchObject({ voice: 'verse', hasKey: true });
    await settings.update({ realtime: { url: 'wss://other.example/v1/realtime' } });
    expect(settings.view().realtime?.hasKey).toBe(false);
  });

  it('read a file saved before the store was shared, whose transcription endpoint was called url', async () => {
    const file = join(dir.dir, 'wheeled-voice.json');
    await writeFile(
      file,
      JSON.stringify({
        provider: 'offline',
        realtime: null,
        transcription: { url: 'http://stt.local/v1', model: 'small', key: 'k' },
      }),
    );
    const reopened = createVoiceSettings({ dataDir: dir.dir, log: silentLog });
    await reopened.load();
    expect(reopened.view().transcription).toEqual({
      baseUrl: 'http://stt.local/v1',
      model: 'small',
      language: '',
      hasKey: true,
    });
    expect(reopened.current().transcription?.key).toBe('k');
  });

  it.each([
    [{ provider: 'cloud' }, 'provider must be offline or realtime'],
    [{ provider: 'realtime' }, 'realtime needs realtime.url'],
    [{ realtime: { url: 'https://rt.example' } }, 'realtime.url must be a ws(s) URL'],
    [{ realtime: { url: 'wss://rt.example', speed: 2 } }, 'unknown field speed'],
    [{ transcription: { url: 'http://stt.local/v1' } }, 'unknown field url'],
    [{ transcription: { baseUrl: 'http://stt.local/v1?x=1' } }, 'must not have a query'],
    [{ realtime: 'x' }, 'realtime must be a JSON object'],
    [{ volume: 3 }, 'unknown field volume'],
  ])('refuse %j with a 400 naming the field', async (body, message) => {
    await expect(settings.update(body)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(message),
    });
    expect(settings.view()).toEqual({ provider: 'offline', realtime: null, transcription: null });
  });
});
