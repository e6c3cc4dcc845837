/**
 * The HTTP part both HTTP providers share: POST a JSON body, and turn every way that can fail
 * into one readable sentence (providers never throw, see types.ts). A vendor's error body is
 * read for its message: OpenAI-style `{error: {message}}`, Ollama's `{error: "..."}` and
 * Anthropic's `{type: "error", error: {type, message}}` all occur.
 */
import { readSse, type SseEvent } from './sse.ts';
import { readTextUpTo } from '../../http-body.ts';
import type { FetchLike, ProviderEvent } from './types.ts';
import { messageOf } from '../../errors.ts';

export type PostOutcome = { ok: true; response: Response } | { ok: false; error: string };

/** The reason an aborted request gives, so a watchdog or a stop can say why the turn ended. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  if (typeof reason === 'string') return reason;
  return 'aborted';
}

export async function postJson(
  fetchFn: FetchLike,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  signal: AbortSignal,
): Promise<PostOutcome> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream, application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { ok: false, error: abortReason(signal) };
    return { ok: false, error: `cannot reach the model server at ${originOf(url)}: ${causeOf(error)}` };
  }
  if (response.ok) return { ok: true, response };
  const detail = await readErrorBody(response);
  return { ok: false, error: `the model server answered ${response.status}${detail ? `: ${detail}` : ''}` };
}

/** The message inside a vendor error body (JSON or text), at most 300 characters. */
export function errorMessageOf(text: string): string {
  let message = text.trim();
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const inner = parsed.error;
    if (typeof inner === 'string') message = inner;
    else if (inner && typeof inner === 'object' && typeof (inner as { message?: unknown }).message === 'string')
      message = (inner as { message: string }).message;
    else if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // Not JSON: keep the text itself.
  }
  return message.length > 300 ? `${message.slice(0, 297)}...` : message;
}

/** An error body longer than this is not read: the message shown is at most 300 characters of it. */
const ERROR_BODY_LIMIT = 64 * 1024;

async function readErrorBody(response: Response): Promise<string> {
  try {
    return errorMessageOf((await readTextUpTo(response, ERROR_BODY_LIMIT)).slice(0, 4000));
  } catch {
    return '';
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** undici hides the useful part (ECONNREFUSED...) in `cause`. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return messageOf(error);
}

/** Joins a base URL and a path without doubling or losing the slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A protocol's frame decoder: SSE frames in, provider events out; `end` when the body ends. */
export interface StreamDecoder {
  feed(frame: SseEvent): ProviderEvent[];
  end(): ProviderEvent[];
}

/**
 * POSTs the request and decodes its SSE body until the decoder reports done or error. Every
 * failure (transport, HTTP status, broken body, abort) ends the stream as one error event.
 */
export async function* streamSse(
  fetchFn: FetchLike,
  request: { url: string; headers: Record<string, string>; body: unknown; signal: AbortSignal },
  decoder: StreamDecoder,
): AsyncGenerator<ProviderEvent> {
  const posted = await postJson(fetchFn, request.url, request.headers, request.body, request.signal);
  if (!posted.ok) {
    yield { type: 'error', error: posted.error };
    return;
  }
  const body = posted.response.body;
  try {
    if (body) {
      for await (const frame of readSse(body)) {
        const events = decoder.feed(frame);
        yield* events;
        if (events.some((e) => e.type === 'done' || e.type === 'error')) return;
      }
    }
    yield* decoder.end();
  } catch (error) {
    const message = messageOf(error);
    yield {
      type: 'error',
      error: request.signal.aborted ? abortReason(request.signal) : `the model stream broke: ${message}`,
    };
  } finally {
    // Leaving early (done, error, or the consumer stopped) must not leave the socket open.
    await body?.cancel().catch(() => undefined);
  }
}
