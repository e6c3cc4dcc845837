/**
 * A client of a Telegram-style bot API (core.telegram.org/bots/api; the platform's
 * messaging-bot channel uses the same): `POST {base}/bot<token>/<method>`, every answer
 * `{ok: true, result}` or `{ok: false, error_code, description, parameters?: {retry_after}}`.
 * getUpdates is a long poll: it waits up to `timeout` seconds for an update with an id at or
 * above `offset`, and calling it with an offset confirms every update below it. sendPhoto
 * uploads the picture as multipart/form-data. The token travels only in the URL path, so it is
 * never logged: errors name the method, not the URL.
 */
import { withDeadline } from '../../deadline.ts';
import { BodyTooLong, readJsonUpTo } from '../../http-body.ts';
import { readUpdates, type BotMessage, type BotUpdate, type BotUser } from './bot-updates.ts';

export type { BotChat, BotMessage, BotUpdate, BotUser } from './bot-updates.ts';

export class BotApiError extends Error {
  override readonly name = 'BotApiError';
  constructor(
    readonly method: string,
    /** error_code, or 0 when the API could not be reached or answered nonsense. */
    readonly code: number,
    readonly description: string,
    readonly retryAfterS?: number,
  ) {
    super(`${method}: ${code ? `${code} ` : ''}${description}`);
  }
}

export interface BotApi {
  getMe(signal: AbortSignal): Promise<BotUser>;
  getUpdates(query: { offset: number; timeout: number; limit: number }, signal: AbortSignal): Promise<BotUpdate[]>;
  sendMessage(chatId: number, text: string, signal: AbortSignal): Promise<BotMessage>;
  sendPhoto(chatId: number, jpeg: Buffer, caption: string | undefined, signal: AbortSignal): Promise<BotMessage>;
}

export const DEFAULT_BOT_API = 'https://api.telegram.org';
/** The API's own limits: message text and photo caption lengths. */
export const MESSAGE_MAX = 4096;
export const CAPTION_MAX = 1024;
/** Every call but the long poll gives up after this long. */
const CALL_TIMEOUT_MS = 20_000;

/**
 * The longest answer read from the bot API. Its largest is a page of getUpdates: at most 100
 * updates of a message each (4096 characters of text and their entities), well under 1 MiB.
 */
const ANSWER_LIMIT = 4 * 1024 * 1024;

type Answer = {
  ok?: unknown;
  result?: unknown;
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
};

export function createBotApi(options: {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** A call's deadline, added to a long poll's own wait (default 20 s). */
  timeoutMs?: number;
}): BotApi {
  const callTimeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const base = `${options.baseUrl.replace(/\/+$/, '')}/bot${options.token}`;

  async function call<T>(
    method: string,
    body: FormData | object,
    signal: AbortSignal,
    timeoutMs = callTimeoutMs,
  ): Promise<T> {
    const form = body instanceof FormData;
    let answered: { status: number; answer: Answer | null };
    try {
      // The deadline covers the body too, whatever the collector does (server/deadline.ts).
      answered = await withDeadline(
        timeoutMs,
        async (bounded) => {
          const response = await doFetch(`${base}/${method}`, {
            method: 'POST',
            headers: form ? {} : { 'content-type': 'application/json' },
            body: form ? body : JSON.stringify(body),
            signal: bounded,
          });
          return {
            status: response.status,
            answer: ((await readJsonUpTo(response, ANSWER_LIMIT)) ?? null) as Answer | null,
          };
        },
        { signal },
      );
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof BodyTooLong)
        throw new BotApiError(method, 0, `the bot API's answer is longer than ${error.limit}`);
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new BotApiError(method, 0, `the bot API is unreachable (${cause})`);
    }
    const { status, answer } = answered;
    if (answer?.ok === true) return answer.result as T;
    const code = typeof answer?.error_code === 'number' ? answer.error_code : status;
    const description = typeof answer?.description === 'string' ? answer.description : `HTTP ${status}`;
    const retry = answer?.parameters?.retry_after;
    throw new BotApiError(method, code, description, typeof retry === 'number' ? retry : undefined);
  }

  return {
    getMe: (signal) => call<BotUser>('getMe', {}, signal),
    async getUpdates(query, signal) {
      const body = { ...query, allowed_updates: ['message'] };
      const result = await call<unknown>('getUpdates', body, signal, query.timeout * 1000 + callTimeoutMs);
      if (!Array.isArray(result)) throw new BotApiError('getUpdates', 0, 'the answer is not a list of updates');
      return readUpdates(result);
    },
    sendMessage: (chatId, text, signal) => call<BotMessage>('sendMessage', { chat_id: chatId, text }, signal),
    sendPhoto(chatId, jpeg, caption, signal) {
      const form = new FormData();
      form.append('chat_id', String(chatId));
      form.append('photo', new Blob([jpeg], { type: 'image/jpeg' }), 'snapshot.jpg');
      if (caption) form.append('caption', caption);
      return call<BotMessage>('sendPhoto', form, signal);
    },
  };
}
