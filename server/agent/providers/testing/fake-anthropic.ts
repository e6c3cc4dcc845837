/**
 * A fake Anthropic Messages server (`POST /v1/messages`, `stream: true`) for tests: it checks
 * requests the way the real API does (x-api-key, anthropic-version, max_tokens, user/assistant
 * roles, every tool_use answered by a tool_result in the next message and no stray results) and
 * streams named SSE events shaped like the documented examples (fake-anthropic.test.ts).
 */
import type { IncomingMessage } from 'node:http';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeServerOptions,
  type Parsed,
  type Rendered,
} from './fake-model-server.ts';
import { pieces, type FakeReply, type FakeRequest } from './fake-script.ts';

export interface FakeAnthropicOptions extends FakeServerOptions {
  /** The accepted x-api-key; any non-empty key when unset. */
  key?: string;
}

/** `url` is the base URL a client is configured with (the origin; the path is /v1/messages). */
export type FakeAnthropic = FakeModelServer & { readonly url: string };

type Block = {
  type?: unknown;
  text?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
};
type Msg = { role?: unknown; content?: unknown };

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const errorJson = (status: number, message: string) => ({
  type: 'error',
  error: { type: ERROR_TYPES[status] ?? 'api_error', message },
});
const refuse = (status: number, message: string): Parsed => ({ ok: false, status, json: errorJson(status, message) });

const blocksOf = (m: Msg | undefined): Block[] =>
  !m
    ? []
    : typeof m.content === 'string'
      ? [{ type: 'text', text: m.content }]
      : Array.isArray(m.content)
        ? (m.content as Block[])
        : [];

/** Each assistant tool_use must be answered in the very next (user) message, and only those. */
function toolPairingError(messages: Msg[]): string | undefined {
  for (let i = 0; i < messages.length; i += 1) {
    const uses = new Set(
      blocksOf(messages[i - 1])
        .filter((b) => b.type === 'tool_use')
        .map((b) => String(b.id)),
    );
    const results = blocksOf(messages[i])
      .filter((b) => b.type === 'tool_result')
      .map((b) => String(b.tool_use_id));
    const stray = results.find((id) => !uses.has(id));
    if (stray)
      return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    const missing = [...uses].filter((id) => !results.includes(id));
    if (missing.length > 0)
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}.`;
  }
  return undefined;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? (content as Block[])
        .filter((b) => b.type === 'text')
        .map((b) => String(b.text))
        .join('')
    : '';
}

function countImages(messages: Msg[]): number {
  const inner = (b: Block): Block[] =>
    b.type === 'tool_result' && Array.isArray(b.content) ? (b.content as Block[]) : [b];
  return messages
    .flatMap(blocksOf)
    .flatMap(inner)
    .filter((b) => b.type === 'image').length;
}

function toRequest(body: Record<string, unknown>, messages: Msg[], headers: IncomingMessage['headers']): FakeRequest {
  const last = messages[messages.length - 1];
  const toolResults = blocksOf(last)
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ id: String(b.tool_use_id), content: textOf(b.content), isError: b.is_error === true }));
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name?: unknown }>) : [];
  return {
    model: String(body.model),
    system: typeof body.system === 'string' ? body.system : textOf(body.system),
    lastUserText: toolResults.length > 0 ? '' : textOf(last?.content),
    toolResults,
    toolNames: tools.map((t) => String(t.name)),
    images: countImages(messages),
    raw: body,
    headers,
  };
}

function parse(options: FakeAnthropicOptions, body: unknown, headers: IncomingMessage['headers']): Parsed {
  const key = headers['x-api-key'];
  if (typeof key !== 'string' || key === '' || (options.key !== undefined && key !== options.key))
    return refuse(401, 'invalid x-api-key');
  if (!headers['anthropic-version']) return refuse(400, 'anthropic-version: header is required');
  if (typeof body !== 'object' || body === null) return refuse(400, 'The request body is not valid JSON.');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return refuse(400, 'model: Field required');
  if (typeof b.max_tokens !== 'number') return refuse(400, 'max_tokens: Field required');
  if (!Array.isArray(b.messages) || b.messages.length === 0)
    return refuse(400, 'messages: at least one message is required');
  const messages = b.messages as Msg[];
  const badRole = messages.findIndex((m) => m.role !== 'user' && m.role !== 'assistant');
  if (badRole >= 0) return refuse(400, `messages.${badRole}.role: Input should be 'user' or 'assistant'`);
  if (b.stream !== true) return refuse(400, 'this fake server only answers streaming requests (stream: true)');
  const pairing = toolPairingError(messages);
  if (pairing) return refuse(400, pairing);
  return { ok: true, request: toRequest(b, messages, headers) };
}

const frame = (event: string, data: Record<string, unknown>) =>
  `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

let counter = 0;

function messageStart(model: string): string {
  counter += 1;
  const message = {
    id: `msg_fake${counter}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 1 },
  };
  return frame('message_start', { message });
}

/** One content block: start, its deltas, stop. */
function block(index: number, start: Record<string, unknown>, deltas: Record<string, unknown>[]): string[] {
  return [
    frame('content_block_start', { index, content_block: start }),
    ...deltas.map((delta) => frame('content_block_delta', { index, delta })),
    frame('content_block_stop', { index }),
  ];
}

function answerFrames(reply: Extract<FakeReply, { kind: 'answer' }>, model: string): string[] {
  const frames = [messageStart(model)];
  let index = 0;
  if (reply.reasoning) {
    const deltas = [
      ...pieces(reply.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: 'fake-signature' },
    ];
    frames.push(...block(index++, { type: 'thinking', thinking: '' }, deltas));
  }
  if (reply.text || !reply.toolCalls?.length) {
    frames.push(
      ...block(
        index++,
        { type: 'text', text: '' },
        pieces(reply.text ?? '').map((text) => ({ type: 'text_delta', text })),
      ),
    );
  }
  frames.splice(2, 0, frame('ping', {}));
  for (const call of reply.toolCalls ?? []) {
    const json = ['', ...pieces(JSON.stringify(call.input ?? {}), 6)].map((partial_json) => ({
      type: 'input_json_delta',
      partial_json,
    }));
    frames.push(
      ...block(
        index++,
        { type: 'tool_use', id: call.id ?? `toolu_fake${counter}_${index}`, name: call.name, input: {} },
        json,
      ),
    );
  }
  const stop_reason = reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  frames.push(frame('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 15 } }));
  frames.push(frame('message_stop', {}));
  return frames;
}

function textBlockOpen(model: string, text: string): string[] {
  const start = [
    messageStart(model),
    frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];
  return [
    ...start,
    ...pieces(text).map((t) => frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } })),
  ];
}

function render(reply: FakeReply, request: FakeRequest): Rendered {
  switch (reply.kind) {
    case 'answer':
      return { frames: answerFrames(reply, request.model), hang: false };
    case 'hang':
      return { frames: [messageStart(request.model), frame('ping', {})], hang: true };
    case 'http_error':
      return { status: reply.status, json: errorJson(reply.status, reply.message) };
    case 'stream_error':
      return {
        frames: [
          ...textBlockOpen(request.model, reply.textBefore ?? ''),
          frame('error', { error: { type: 'overloaded_error', message: reply.message } }),
        ],
        hang: false,
      };
    case 'cut':
      return { frames: textBlockOpen(request.model, reply.textBefore ?? ''), hang: false };
  }
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const server = await startFakeModelServer(
    { path: '/v1/messages', parse: (body, headers) => parse(options, body, headers), render },
    options,
  );
  return Object.assign(server, { url: server.origin });
}
