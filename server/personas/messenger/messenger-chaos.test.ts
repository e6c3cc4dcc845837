/**
 * A bot API that answers getUpdates with odd bodies (server/testing/mutating-fetch.ts): half of
 * the answers have one or two members swapped for values of other types. The API is someone
 * else's (Telegram, or the platform's bot channel), so what it says is read, not trusted: the
 * messenger must not throw, must keep its state document loadable (a chat id or an offset of the
 * wrong type there would have the whole document discarded at the next start: the offset and the
 * seen chats lost), and must answer again once the API is sane.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../../log.ts';
import { until } from '../../motion/testing/rig.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { mutatingFetch } from '../../testing/mutating-fetch.ts';
import { createManualSchedule } from '../testing/manual-schedule.ts';
import { createMessenger, type Messenger } from './messenger-bot.ts';
import { createMessengerSettings } from './messenger-settings.ts';
import { botKey, createMessengerState } from './messenger-state.ts';
import { startFakeBotApi, type FakeBotApi } from './testing/fake-bot-api.ts';

let bot: FakeBotApi | undefined;
let messenger: Messenger | undefined;
let dir: { dir: string; cleanup: () => Promise<void> } | undefined;
afterEach(async () => {
  await messenger?.close();
  await bot?.close();
  await dir?.cleanup();
  messenger = bot = dir = undefined;
});

describe('the messenger against a bot API that answers odd updates', () => {
  it.each([1, 2, 3])('keeps its state loadable and answers again once the API is sane (seed %i)', async (seed) => {
    const api = (bot = await startFakeBotApi());
    const temp = (dir = await makeTempDir());
    const chaos = mutatingFetch({ seed, rate: 0.5 });
    const clock = createManualSchedule(0);
    const file = join(temp.dir, 'messenger-state.json');
    const settings = createMessengerSettings({ file: join(temp.dir, 'messenger-persona.json'), log: silentLog });
    const state = createMessengerState({ file, log: silentLog });
    await Promise.all([settings.load(), state.load()]);
    const chatty = (messenger = createMessenger({
      settings,
      state,
      runtime: { start: () => Promise.reject(new Error('no turns here')) as never },
      agentLog: { add: () => ({ id: 1, append() {}, update() {}, finish() {} }), page: () => [] },
      snapshot: async () => undefined,
      log: silentLog,
      schedule: clock.schedule,
      now: clock.now,
      pollTimeoutS: 1,
      // Only the updates are odd: they are what the messenger reads and stores.
      fetch: (input, init) =>
        String(input).endsWith('/getUpdates') ? chaos.fetch(String(input), init) : fetch(input, init),
    }));
    for (let i = 0; i < 150; i += 1) api.userSends({ id: 1000 + (i % 5), first_name: `User ${i % 5}` }, `hello ${i}`);
    await settings.update({ enabled: true, apiBaseUrl: api.url, token: api.token });
    chatty.apply();
    const last = api.userSends({ id: 1004, first_name: 'User 4' }, 'the last one').update_id;
    const key = botKey(api.url, api.token);

    // Every update is confirmed (the offset passes the last one), whatever became of the odd ones;
    // a poll that failed is retried on the schedule, which the test moves on when it sees one.
    await until(() => {
      if (chatty.status().state === 'failed') clock.advance(60_000);
      return state.offset(key) > last;
    }, 30_000);
    expect(state.offset(key), chaos.mutations.slice(-4).join(' | ')).toBe(last + 1);
    expect(chaos.counts().mutated).toBeGreaterThan(3);

    // The document on disk reads back whole: the offset and the chats seen are kept. The offset
    // above is the one in memory; its write may still be in flight. Writes are queued in order, so
    // once a commit of the same offset is written, every earlier write is too.
    await state.commit(key, last + 1);
    const reread = createMessengerState({ file, log: silentLog });
    await reread.load();
    expect(reread.offset(key)).toBe(last + 1);
    expect(reread.seen(key).length).toBeGreaterThan(0);
    for (const chat of reread.seen(key)) {
      expect(Number.isSafeInteger(chat.id) && typeof chat.title === 'string' && typeof chat.lastText === 'string').toBe(
        true,
      );
    }

    // Sane again: a new chat is answered with its pairing reply. Replies to the earlier updates
    // may still be on their way (the offset is confirmed before they are sent), so the test waits
    // for the new chat's own reply, not for the next reply of any chat.
    chaos.setRate(0);
    api.userSends({ id: 2024, first_name: 'Grace' }, 'hi');
    await until(() => api.sent.some((m) => m.chatId === 2024));
    expect(api.sent.filter((m) => m.chatId === 2024)).toMatchObject([
      { chatId: 2024, text: expect.stringContaining('2024') },
    ]);
  });
});
