/**
 * The messenger's lifecycle rules against the fake bot API with a hand-stepped restart clock:
 * a refused token is retried after 5 s, then 10 s; no token means no polling; switching off
 * stops the loop.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewRow } from '../../agent/log-row.ts';
import { silentLog } from '../../log.ts';
import { until } from '../../motion/testing/rig.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createManualSchedule } from '../testing/manual-schedule.ts';
import { createMessenger, type Messenger } from './messenger-bot.ts';
import { createMessengerSettings, type MessengerSettings } from './messenger-settings.ts';
import { createMessengerState } from './messenger-state.ts';
import { startFakeBotApi, type FakeBotApi } from './testing/fake-bot-api.ts';

let bot: FakeBotApi;
let dir: { dir: string; cleanup: () => Promise<void> };
let settings: MessengerSettings;
let messenger: Messenger;
let rows: NewRow[];
const clock = createManualSchedule(0);
let getMeCalls = 0;

beforeEach(async () => {
  bot = await startFakeBotApi();
  dir = await makeTempDir();
  settings = createMessengerSettings({ file: join(dir.dir, 'messenger-persona.json'), log: silentLog });
  const state = createMessengerState({ file: join(dir.dir, 'messenger-state.json'), log: silentLog });
  await Promise.all([settings.load(), state.load()]);
  rows = [];
  getMeCalls = 0;
  messenger = createMessenger({
    settings,
    state,
    runtime: { start: () => Promise.reject(new Error('no turns here')) as never },
    agentLog: { add: (row) => (rows.push(row), { id: 1, append() {}, update() {}, finish() {} }), page: () => [] },
    snapshot: async () => undefined,
    log: silentLog,
    schedule: clock.schedule,
    now: clock.now,
    pollTimeoutS: 1,
    fetch: (input, init) => {
      if (String(input).endsWith('/getMe')) getMeCalls += 1;
      return fetch(input, init);
    },
  });
});
afterEach(async () => {
  await messenger.close();
  await bot.close();
  await dir.cleanup();
});

describe('messenger lifecycle', () => {
  it('is off by default and does not poll without a token', async () => {
    messenger.apply();
    expect(messenger.status()).toMatchObject({ state: 'off', pairing: true, seenChats: [] });
    await settings.update({ enabled: true, apiBaseUrl: bot.url });
    messenger.apply();
    expect(messenger.status()).toMatchObject({ state: 'no_token', detail: 'no bot token: add one in the dashboard' });
    expect(getMeCalls).toBe(0);
  });

  it('retries a refused token after 5 s, then 10 s, and stops when switched off', async () => {
    await settings.update({ enabled: true, apiBaseUrl: bot.url, token: '1:wrong-token' });
    messenger.apply();
    await until(() => messenger.status().state === 'failed');
    expect(messenger.status()).toMatchObject({
      detail: 'getMe: 401 Unauthorized; retrying in 5 s',
      failures: 1,
      retryAt: new Date(5000).toISOString(),
      lastError: { text: 'getMe: 401 Unauthorized' },
    });
    expect(rows.at(-1)).toMatchObject({
      persona: 'messenger',
      error: true,
      text: 'Messenger failed: getMe: 401 Unauthorized; retrying in 5 s',
    });
    clock.advance(5000);
    await until(() => getMeCalls === 2 && messenger.status().failures === 2);
    expect(messenger.status().detail).toMatch(/retrying in 10 s$/);
    await settings.update({ enabled: false });
    messenger.apply();
    clock.advance(600_000);
    expect(getMeCalls).toBe(2);
    expect(messenger.status()).toMatchObject({ state: 'off', failures: 0 });
  });

  it('starts at once with a new token, forgetting the old failures', async () => {
    await settings.update({ enabled: true, apiBaseUrl: bot.url, token: '1:wrong-token' });
    messenger.apply();
    await until(() => messenger.status().state === 'failed');
    await settings.update({ token: bot.token });
    messenger.apply();
    await until(() => messenger.status().state === 'pairing');
    expect(messenger.status()).toMatchObject({ failures: 0, retryAt: null, bot: { username: 'cockpit_test_bot' } });
  });
});
