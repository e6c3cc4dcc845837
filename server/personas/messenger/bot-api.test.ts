import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotApiError, createBotApi } from './bot-api.ts';
import { startFakeBotApi, type FakeBotApi } from './testing/fake-bot-api.ts';
import { fetchThenCollect, startTrickleServer } from '../../testing/trickle-server.ts';
import { eventually } from '../../testing/eventually.ts';

let fake: FakeBotApi;
beforeEach(async () => {
  fake = await startFakeBotApi();
});
afterEach(() => fake.close());
const signal = () => new AbortController().signal;

describe('bot API client', () => {
  it('gets updates with offset, timeout and limit, sends text and photos', async () => {
    const api = createBotApi({ baseUrl: `${fake.url}/`, token: fake.token });
    expect(await api.getMe(signal())).toEqual(fake.bot);
    const update = fake.userSends({ id: 31 }, 'hello');
    expect(await api.getUpdates({ offset: 0, timeout: 0, limit: 10 }, signal())).toEqual([update]);
    expect(await api.getUpdates({ offset: update.update_id + 1, timeout: 0, limit: 10 }, signal())).toEqual([]);
    expect(fake.polls.at(-1)).toEqual({ offset: update.update_id + 1, timeout: 0, limit: 10 });
    expect(await api.sendMessage(31, 'hi there', signal())).toMatchObject({ chat: { id: 31 }, text: 'hi there' });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    expect(await api.sendPhoto(31, jpeg, 'look', signal())).toMatchObject({ caption: 'look' });
    expect(fake.sent).toEqual([
      { method: 'sendMessage', chatId: 31, text: 'hi there' },
      { method: 'sendPhoto', chatId: 31, caption: 'look', photo: jpeg },
    ]);
  });

  it('turns refusals into errors with the code and description, never the token', async () => {
    const wrong = createBotApi({ baseUrl: fake.url, token: '1:not-the-token' });
    const error = (await wrong.getMe(signal()).catch((e: unknown) => e)) as BotApiError;
    expect(error).toBeInstanceOf(BotApiError);
    expect(error).toMatchObject({
      method: 'getMe',
      code: 401,
      description: 'Unauthorized',
      message: 'getMe: 401 Unauthorized',
    });
    const api = createBotApi({ baseUrl: fake.url, token: fake.token });
    await expect(api.sendMessage(1, 'x', signal())).rejects.toThrow('sendMessage: 400 Bad Request: chat not found');
    const url = fake.url;
    await fake.close();
    const gone = createBotApi({ baseUrl: url, token: fake.token });
    const down = (await gone.getMe(signal()).catch((e: unknown) => e)) as BotApiError;
    expect(down).toMatchObject({ code: 0, message: expect.stringMatching(/^getMe: the bot API is unreachable \(\w+/) });
    expect(down.message).not.toContain(fake.token);
    fake = await startFakeBotApi();
  });

  it('gives up a long poll when its signal aborts', async () => {
    const api = createBotApi({ baseUrl: fake.url, token: fake.token });
    const controller = new AbortController();
    const poll = api.getUpdates({ offset: 0, timeout: 30, limit: 10 }, controller.signal);
    await eventually(() => fake.waiting() === 1, { what: 'fake.waiting() to be 1' });
    controller.abort(new Error('stopping'));
    await expect(poll).rejects.toThrow('stopping');
  });
});

describe('bot API client against an answer that never ends', () => {
  it('gives up at its deadline, body included, even when garbage is collected meanwhile', async () => {
    const server = await startTrickleServer('{"ok":');
    const api = createBotApi({
      baseUrl: server.url,
      token: fake.token,
      timeoutMs: 200,
      fetch: fetchThenCollect(),
    });
    try {
      await expect(api.getMe(signal())).rejects.toMatchObject({
        code: 0,
        message: 'getMe: the bot API is unreachable (The operation was aborted due to timeout)',
      });
    } finally {
      server.close();
    }
  });
});
