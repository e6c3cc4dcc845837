import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createMessengerSettings, type MessengerSettings } from './messenger-settings.ts';

let dir: { dir: string; cleanup: () => Promise<void> };
let settings: MessengerSettings;
const file = () => join(dir.dir, 'messenger-persona.json');

beforeEach(async () => {
  dir = await makeTempDir();
  settings = createMessengerSettings({ file: file(), log: silentLog });
  await settings.load();
});
afterEach(() => dir.cleanup());

describe('messenger settings', () => {
  it('are off by default against the Telegram API', () => {
    expect(settings.view()).toEqual({
      enabled: false,
      apiBaseUrl: 'https://api.telegram.org',
      hasToken: false,
      allowedChats: [],
    });
  });

  it('keep the token server-side (0600) and never in the view; another API drops it', async () => {
    await settings.update({ enabled: true, token: '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11' });
    expect(settings.view()).toEqual({
      enabled: true,
      apiBaseUrl: 'https://api.telegram.org',
      hasToken: true,
      allowedChats: [],
    });
    expect((await stat(file())).mode & 0o777).toBe(0o600);
    expect(await readFile(file(), 'utf8')).toContain('123456:ABC');
    await settings.update({ enabled: false });
    expect(settings.view().hasToken).toBe(true);
    await settings.update({ apiBaseUrl: 'http://127.0.0.1:8081/' });
    expect(settings.view()).toMatchObject({ apiBaseUrl: 'http://127.0.0.1:8081', hasToken: false });
  });

  it('allow and remove chats (idempotent), kept across a reload', async () => {
    await settings.allowChat(42);
    await settings.allowChat(-1001234567890);
    await settings.allowChat(42);
    expect(settings.view().allowedChats).toEqual([42, -1001234567890]);
    await settings.removeChat(42);
    const again = createMessengerSettings({ file: file(), log: silentLog });
    await again.load();
    expect(again.view().allowedChats).toEqual([-1001234567890]);
    await expect(settings.allowChat(1.5)).rejects.toMatchObject({ status: 400 });
    await expect(settings.allowChat(0)).rejects.toMatchObject({ status: 400 });
  });

  it.each([
    [{ token: 'abc/../getMe' }, 'token must be the bot token'],
    [{ token: 'a b' }, 'token must be the bot token'],
    [{ apiBaseUrl: 'telegram' }, 'apiBaseUrl must be an http(s) URL'],
    [{ allowedChats: [1] }, 'unknown field allowedChats'],
    [{ enabled: 1 }, 'enabled must be true or false'],
  ])('refuse %j', async (body, message) => {
    await expect(settings.update(body)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(message),
    });
  });
});
