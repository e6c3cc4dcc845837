import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createVoiceSettings, type VoiceSettings } from './voice-settings.ts';

let dir: { dir: string; cleanup: () => Promise<void> };
let settings: VoiceSettings;
const file = () => join(dir.dir, 'voice-persona.json');

beforeEach(async () => {
  dir = await makeTempDir();
  settings = createVoiceSettings({ file: file(), log: silentLog, platform: 'linux' });
  await settings.load();
});
afterEach(() => dir.cleanup());

describe('voice settings', () => {
  it('are off by default, with the OpenAI endpoint and no key', () => {
    expect(settings.view()).toEqual({
      enabled: false,
      source: 'device',
      muted: false,
      transcription: { baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', language: '', hasKey: false },
    });
  });

  it("default to the robot's microphone where the camera carries it, and take `daemon` as a source", async () => {
    const withCamera = createVoiceSettings({
      file: join(dir.dir, 'other.json'),
      log: silentLog,
      defaultSource: 'daemon',
    });
    await withCamera.load();
    expect(withCamera.view().source).toBe('daemon');
    await settings.update({ source: 'daemon' });
    expect(settings.view().source).toBe('daemon');
    await settings.update({ source: 'alsa:hw:1,0' });
    expect(settings.view().source).toBe('alsa:hw:1,0');
  });

  it('keep the key server-side (0600), show hasKey, keep it for the same endpoint and drop it for another', async () => {
    await settings.update({ enabled: true, transcription: { baseUrl: 'http://127.0.0.1:9000/v1/', key: 'sk-secret' } });
    expect(settings.view().transcription).toEqual({
      baseUrl: 'http://127.0.0.1:9000/v1',
      model: 'whisper-1',
      language: '',
      hasKey: true,
    });
    expect(JSON.stringify(settings.view())).not.toContain('sk-secret');
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(await readFile(file(), 'utf8')).toContain('sk-secret');
    await settings.update({ muted: true, transcription: { model: 'large-v3' } });
    expect(settings.view().transcription.hasKey).toBe(true);
    await settings.update({ transcription: { baseUrl: 'https://stt.example/v1' } });
    expect(settings.view().transcription.hasKey).toBe(false);
    await settings.update({ transcription: { key: 'k2' } });
    await settings.update({ transcription: { key: '' } });
    expect(settings.view()).toMatchObject({
      muted: true,
      enabled: true,
      transcription: { model: 'large-v3', hasKey: false },
    });

    const reopened = createVoiceSettings({ file: file(), log: silentLog, platform: 'linux' });
    await reopened.load();
    expect(reopened.view()).toEqual(settings.view());
  });

  it.each([
    [{ volume: 3 }, 'unknown field volume'],
    [{ enabled: 'yes' }, 'enabled must be true or false'],
    [{ source: 'robot' }, 'source must be daemon, device'],
    [{ source: 'daemon:ws://x:8443' }, 'source must be'],
    [{ transcription: { baseUrl: 'ftp://x' } }, 'transcription.baseUrl must be an http(s) URL'],
    [{ transcription: { baseUrl: 'https://u:p@x/v1' } }, 'must not carry credentials'],
    [{ transcription: { language: 'english' } }, 'transcription.language must be a language code'],
    [{ transcription: 'x' }, 'transcription must be a JSON object'],
    [[], 'body must be a JSON object'],
  ])('refuse %j', async (body, message) => {
    await expect(settings.update(body)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(message),
    });
    expect(settings.view().enabled).toBe(false);
  });
});
