/**
 * The fake bot API against the documented shapes: `{ok: true, result: [...]}` with Update and
 * Message objects, `{ok: false, error_code, description}` errors, long polling with offsets and
 * timeout, the 409 conflict of a second poller, and uploads through multipart/form-data.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeBotApi, type FakeBotApi } from './fake-bot-api.ts';
import { eventually } from '../../../testing/eventually.ts';

let fake: FakeBotApi;
beforeEach(async () => {
  fake = await startFakeBotApi();
});
afterEach(() => fake.close());

const call = async (method: string, init?: RequestInit, token = fake.token) => {
  const res = await fetch(`${fake.url}/bot${token}/${method}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const json = (body: object): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('fake bot API', () => {
  it('refuses a wrong token and an unknown method like the real API', async () => {
    expect(await call('getMe', undefined, '1:wrong')).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    });
    expect(await call('noSuchMethod')).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: 'Not Found' },
    });
    expect((await call('GETME')).body).toEqual({ ok: true, result: fake.bot });
  });

  it('returns updates in the documented shape, and an offset confirms them', async () => {
    const sent = fake.userSends({ id: 4242, first_name: 'Ada', username: 'ada' }, '/start');
    const first = await call('getUpdates');
    expect(first.body).toEqual({
      ok: true,
      result: [
        {
          update_id: sent.update_id,
          message: {
            message_id: 1,
            from: { id: 4242, is_bot: false, first_name: 'Ada' },
            chat: { id: 4242, type: 'private', first_name: 'Ada', username: 'ada' },
            date: expect.any(Number),
            text: '/start',
          },
        },
      ],
    });
    // Still unconfirmed: delivered again until a higher offset is sent.
    expect((await call(`getUpdates?offset=${sent.update_id}`)).body.result).toHaveLength(1);
    expect((await call(`getUpdates?offset=${sent.update_id + 1}`)).body).toEqual({ ok: true, result: [] });
    expect((await call('getUpdates')).body.result).toEqual([]);
    fake.redeliver();
    expect((await call('getUpdates')).body.result).toHaveLength(1);
  });

  it('long-polls: waits for an update, or answers [] when the timeout runs out', async () => {
    const started = Date.now();
    const empty = await call('getUpdates', json({ timeout: 1 }));
    expect(empty.body).toEqual({ ok: true, result: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);

    const waiting = call('getUpdates', json({ offset: 0, timeout: 20, limit: 5 }));
    await eventually(() => fake.waiting() === 1, { what: 'fake.waiting() to be 1' });
    const update = fake.userSends({ id: 7 }, 'hello');
    expect((await waiting).body).toEqual({ ok: true, result: [update] });
    expect(fake.polls.at(-1)).toEqual({ offset: 0, timeout: 20, limit: 5 });
  });

  it('ends a waiting poll with 409 when a second one arrives', async () => {
    const first = call('getUpdates', json({ timeout: 20 }));
    await eventually(() => fake.waiting() === 1, { what: 'fake.waiting() to be 1' });
    const second = call('getUpdates', json({ timeout: 0 }));
    expect(await first).toEqual({
      status: 409,
      body: {
        ok: false,
        error_code: 409,
        description:
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      },
    });
    expect((await second).body).toEqual({ ok: true, result: [] });
  });

  it('sends messages (JSON or urlencoded) only to chats that wrote to the bot', async () => {
    expect((await call('sendMessage', json({ chat_id: 99, text: 'hi' }))).body).toEqual({
      ok: false,
      error_code: 400,
      description: 'Bad Request: chat not found',
    });
    fake.userSends({ id: 99 }, 'hello');
    const ok = await call('sendMessage', json({ chat_id: 99, text: 'hi' }));
    expect(ok.body).toMatchObject({
      ok: true,
      result: { message_id: 2, from: fake.bot, chat: { id: 99 }, text: 'hi' },
    });
    const form = await call('sendMessage', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'chat_id=99&text=%E2%9C%93',
    });
    expect(form.body).toMatchObject({ ok: true, result: { text: '✓' } });
    expect((await call('sendMessage', json({ chat_id: 99, text: ' ' }))).body.description).toBe(
      'Bad Request: message text is empty',
    );
    expect(fake.sent).toEqual([
      { method: 'sendMessage', chatId: 99, text: 'hi' },
      { method: 'sendMessage', chatId: 99, text: '✓' },
    ]);
  });

  it('takes a photo upload as multipart/form-data and answers a Message with PhotoSize entries', async () => {
    fake.userSends({ id: 5 }, '/photo');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const form = new FormData();
    form.append('chat_id', '5');
    form.append('photo', new Blob([jpeg], { type: 'image/jpeg' }), 'snap.jpg');
    form.append('caption', 'the desk');
    const res = await call('sendPhoto', { method: 'POST', body: form });
    expect(res.body).toMatchObject({
      ok: true,
      result: {
        chat: { id: 5 },
        caption: 'the desk',
        photo: [
          { file_id: expect.any(String), file_unique_id: expect.any(String), width: 640, height: 360, file_size: 9 },
        ],
      },
    });
    expect(fake.sent[0]).toEqual({ method: 'sendPhoto', chatId: 5, caption: 'the desk', photo: jpeg });
    const none = new FormData();
    none.append('chat_id', '5');
    expect((await call('sendPhoto', { method: 'POST', body: none })).body.description).toBe(
      'Bad Request: there is no photo in the request',
    );
  });
});
