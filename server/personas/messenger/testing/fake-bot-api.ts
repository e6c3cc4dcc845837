/**
 * A fake Telegram-style bot API for tests, faithful to the documented behaviour
 * (core.telegram.org/bots/api): `/bot<token>/<method>` with parameters as a query string, JSON,
 * urlencoded or multipart/form-data; method names case-insensitive; answers `{ok: true, result}`
 * or `{ok: false, error_code, description}` (401 "Unauthorized" for a wrong token, 404 "Not
 * Found" for an unknown method). getUpdates long-polls: updates at or above `offset` come back
 * at once, else the request waits up to `timeout` seconds for one; an offset confirms (drops)
 * every update below it; a second poll ends the waiting one with 409 "Conflict: terminated by
 * other getUpdates request". sendMessage and sendPhoto reach only chats that wrote to the bot.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BotChat, BotMessage, BotUpdate, BotUser } from '../bot-api.ts';
import { readParams, type Params } from './bot-params.ts';

export interface SentMessage {
  method: 'sendMessage' | 'sendPhoto';
  chatId: number;
  text?: string;
  caption?: string;
  photo?: Buffer;
}

export interface FakeBotApi {
  /** The API base URL, as a client is configured with (no /bot<token>). */
  readonly url: string;
  readonly token: string;
  readonly bot: BotUser;
  /** Someone writes `text` to the bot in `chat`; the update is queued (and wakes a waiting poll). */
  userSends(chat: Partial<BotChat> & { id: number }, text: string): BotUpdate;
  readonly sent: SentMessage[];
  readonly polls: Array<{ offset: number | null; timeout: number; limit: number }>;
  /** Forgets every confirmation: all updates are delivered again (a server that lost the offset). */
  redeliver(): void;
  /** Polls waiting for an update now. */
  waiting(): number;
  close(): Promise<void>;
}

interface Waiter {
  offset: number;
  limit: number;
  answer(result: BotUpdate[] | { status: number; description: string }): void;
}

const reply = (res: ServerResponse, status: number, body: object) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const fail = (res: ServerResponse, status: number, description: string) =>
  reply(res, status, { ok: false, error_code: status, description });

class FakeBot {
  readonly bot: BotUser = { id: 7000001, is_bot: true, first_name: 'Cockpit Test Bot', username: 'cockpit_test_bot' };
  readonly token = `${this.bot.id}:AAF-fake_token-for_tests-0123456789ab`;
  readonly sent: SentMessage[] = [];
  readonly polls: FakeBotApi['polls'] = [];
  private all: BotUpdate[] = [];
  private queue: BotUpdate[] = [];
  private nextUpdate = 815_000_001;
  private nextMessage = 1;
  private readonly chats = new Map<number, BotChat>();
  waiter: Waiter | undefined;

  userSends(chat: Partial<BotChat> & { id: number }, text: string): BotUpdate {
    const full: BotChat = { type: 'private', first_name: 'Ada', ...chat };
    this.chats.set(chat.id, full);
    const from: BotUser = { id: Math.abs(chat.id), is_bot: false, first_name: full.first_name ?? 'Ada' };
    const message: BotMessage = {
      message_id: this.nextMessage++,
      from,
      chat: full,
      date: Math.floor(Date.now() / 1000),
      text,
    };
    const update = { update_id: this.nextUpdate++, message };
    this.all.push(update);
    this.queue.push(update);
    this.wake();
    return update;
  }

  redeliver(): void {
    this.queue = [...this.all];
  }

  private wake(): void {
    const w = this.waiter;
    if (!w) return;
    const ready = this.queue.filter((u) => u.update_id >= w.offset).slice(0, w.limit);
    if (ready.length === 0) return;
    this.waiter = undefined;
    w.answer(ready);
  }

  getUpdates(p: Params, answer: Waiter['answer']): void {
    const offset = p.int('offset');
    const timeout = Math.max(0, p.int('timeout') ?? 0);
    const limit = Math.min(100, Math.max(1, p.int('limit') ?? 100));
    this.polls.push({ offset: offset ?? null, timeout, limit });
    if (offset !== undefined && offset < 0) this.queue = this.queue.slice(offset);
    else if (offset !== undefined) this.queue = this.queue.filter((u) => u.update_id >= offset);
    const superseded = this.waiter;
    this.waiter = undefined;
    superseded?.answer({
      status: 409,
      description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    });
    const ready = this.queue.slice(0, limit);
    if (ready.length > 0 || timeout === 0) return answer(ready);
    const waiter: Waiter = { offset: offset ?? 0, limit, answer };
    const timer = setTimeout(() => {
      if (this.waiter !== waiter) return;
      this.waiter = undefined;
      answer([]);
    }, timeout * 1000);
    waiter.answer = (result) => {
      clearTimeout(timer);
      answer(result);
    };
    this.waiter = waiter;
  }

  send(method: 'sendMessage' | 'sendPhoto', p: Params): BotMessage | { status: number; description: string } {
    const chatId = p.int('chat_id');
    if (chatId === undefined) return { status: 400, description: 'Bad Request: chat_id is empty' };
    const chat = this.chats.get(chatId);
    if (!chat) return { status: 400, description: 'Bad Request: chat not found' };
    const base = { message_id: this.nextMessage++, from: this.bot, chat, date: Math.floor(Date.now() / 1000) };
    if (method === 'sendMessage') {
      const text = p.text('text') ?? '';
      if (text.trim() === '') return { status: 400, description: 'Bad Request: message text is empty' };
      if (text.length > 4096) return { status: 400, description: 'Bad Request: message is too long' };
      this.sent.push({ method, chatId, text });
      return { ...base, text };
    }
    const photo = p.file('photo');
    if (!photo) return { status: 400, description: 'Bad Request: there is no photo in the request' };
    if (photo[0] !== 0xff || photo[1] !== 0xd8)
      return { status: 400, description: 'Bad Request: IMAGE_PROCESS_FAILED' };
    const caption = p.text('caption');
    if (caption && caption.length > 1024)
      return { status: 400, description: 'Bad Request: message caption is too long' };
    this.sent.push({ method, chatId, photo, ...(caption ? { caption } : {}) });
    const size = {
      file_id: `photo-${base.message_id}`,
      file_unique_id: `u${base.message_id}`,
      width: 640,
      height: 360,
      file_size: photo.length,
    };
    return { ...base, photo: [size], ...(caption ? { caption } : {}) };
  }
}

async function handle(fake: FakeBot, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const match = /^\/bot([^/]+)\/([A-Za-z]+)(\?.*)?$/.exec(req.url ?? '');
  if (!match) return fail(res, 404, 'Not Found');
  if (match[1] !== fake.token) return fail(res, 401, 'Unauthorized');
  const p = await readParams(req);
  const method = (match[2] ?? '').toLowerCase();
  if (method === 'getme') return reply(res, 200, { ok: true, result: fake.bot });
  if (method === 'getupdates')
    return fake.getUpdates(p, (r) =>
      Array.isArray(r) ? reply(res, 200, { ok: true, result: r }) : fail(res, r.status, r.description),
    );
  if (method === 'sendmessage' || method === 'sendphoto') {
    const r = fake.send(method === 'sendmessage' ? 'sendMessage' : 'sendPhoto', p);
    return 'status' in r ? fail(res, r.status, r.description) : reply(res, 200, { ok: true, result: r });
  }
  fail(res, 404, 'Not Found');
}

export async function startFakeBotApi(): Promise<FakeBotApi> {
  const fake = new FakeBot();
  const server = createServer(
    (req, res) => void handle(fake, req, res).catch(() => fail(res, 500, 'Internal Server Error')),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: fake.token,
    bot: fake.bot,
    userSends: (chat, text) => fake.userSends(chat, text),
    sent: fake.sent,
    polls: fake.polls,
    redeliver: () => fake.redeliver(),
    waiting: () => (fake.waiter ? 1 : 0),
    close: () =>
      new Promise<void>((resolve) => {
        const waiting = fake.waiter;
        fake.waiter = undefined;
        waiting?.answer([]);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
