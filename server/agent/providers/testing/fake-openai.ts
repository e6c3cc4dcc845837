/**
 * A fake OpenAI-compatible chat-completions server (`POST /v1/chat/completions`, `stream: true`)
 * for tests: it checks requests the way the real API does (bearer key, model, tool messages that
 * answer a preceding assistant's tool_calls) and streams `chat.completion.chunk` frames shaped
 * like the documented examples, ending with `data: [DONE]` (checked in fake-openai.test.ts).
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

export interface FakeOpenAiOptions extends FakeServerOptions {
  /** When set, requests must carry `Authorization: Bearer <key>`. */
  key?: string;
  /** When set, other model names are answered 404 model_not_found. */
  models?: string[];
}

/** `url` is the base URL a client is configured with (…/v1). */
export type FakeOpenAi = FakeModelServer & { readonly url: string };

type Msg = { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };

const apiError = (status: number, message: string, code: string | null = null): Parsed => ({
  ok: false,
  status,
  json: { error: { message, type: 'invalid_request_error', param: null, code } },
});

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { type?: unknown; text?: unknown }) => (p.type === 'text' ? String(p.text) : '')).join('');
}

function countImages(messages: Msg[]): number {
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type?: unknown }>) : []))
    .filter((p) => p.type === 'image_url').length;
}

/** A tool message must answer a tool_call of the nearest assistant message before it. */
function orphanToolMessage(messages: Msg[]): boolean {
  let ids = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as Array<{ id?: unknown }>) : [];
      ids = new Set(calls.map((c) => String(c.id)));
    } else if (m.role === 'tool' && !ids.has(String(m.tool_call_id))) return true;
  }
  return false;
}

function toRequest(body: Record<string, unknown>, messages: Msg[], headers: IncomingMessage['headers']): FakeRequest {
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  const tail = messages.slice(lastAssistant + 1);
  const toolResults = tail
    .filter((m) => m.role === 'tool')
    .map((m) => ({
      id: String(m.tool_call_id),
      content: textOf(m.content),
      isError: /"error"/.test(textOf(m.content)),
    }));
  const lastUser = [...tail].reverse().find((m) => m.role === 'user');
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name?: unknown } }>) : [];
  return {
    model: String(body.model),
    system: messages
      .filter((m) => m.role === 'system')
      .map((m) => textOf(m.content))
      .join('\n'),
    lastUserText: toolResults.length > 0 || !lastUser ? '' : textOf(lastUser.content),
    toolResults,
    toolNames: tools.map((t) => String(t.function?.name)),
    images: countImages(messages),
    raw: body,
    headers,
  };
}

function parse(options: FakeOpenAiOptions, body: unknown, headers: IncomingMessage['headers']): Parsed {
  if (options.key !== undefined && headers.authorization !== `Bearer ${options.key}`)
    return apiError(401, 'Incorrect API key provided.', 'invalid_api_key');
  if (typeof body !== 'object' || body === null)
    return apiError(400, 'We could not parse the JSON body of your request.');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return apiError(400, 'you must provide a model parameter');
  if (options.models && !options.models.includes(b.model))
    return apiError(404, `The model \`${b.model}\` does not exist or you do not have access to it.`, 'model_not_found');
  if (!Array.isArray(b.messages) || b.messages.length === 0)
    return apiError(400, "'messages' must contain at least 1 item.");
  if (b.stream !== true) return apiError(400, 'this fake server only answers streaming requests (stream: true)');
  const messages = b.messages as Msg[];
  if (orphanToolMessage(messages))
    return apiError(
      400,
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
  return { ok: true, request: toRequest(b, messages, headers) };
}

let counter = 0;

/** Frame writer for one response: every chunk carries the same id, created and model. */
function chunker(model: string) {
  const base = {
    id: `chatcmpl-fake${(counter += 1)}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: 'fp_fake',
  };
  return (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

function answerFrames(reply: Extract<FakeReply, { kind: 'answer' }>, chunk: ReturnType<typeof chunker>): string[] {
  const calls = reply.toolCalls ?? [];
  const frames: string[] = [];
  const textual = Boolean(reply.text || reply.reasoning) || calls.length === 0;
  if (textual) frames.push(chunk({ role: 'assistant', content: '' }));
  for (const p of pieces(reply.reasoning ?? '')) frames.push(chunk({ reasoning_content: p }));
  for (const p of pieces(reply.text ?? '')) frames.push(chunk({ content: p }));
  calls.forEach((call, index) => {
    const head = {
      index,
      id: call.id ?? `call_fake${counter}_${index}`,
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    frames.push(
      chunk(
        !textual && index === 0 ? { role: 'assistant', content: null, tool_calls: [head] } : { tool_calls: [head] },
      ),
    );
    for (const p of pieces(JSON.stringify(call.input ?? {}), 6))
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  frames.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  frames.push('data: [DONE]\n\n');
  return frames;
}

function render(reply: FakeReply, request: FakeRequest): Rendered {
  const chunk = chunker(request.model);
  const opening = [chunk({ role: 'assistant', content: '' })];
  switch (reply.kind) {
    case 'answer':
      return { frames: answerFrames(reply, chunk), hang: false };
    case 'hang':
      return { frames: opening, hang: true };
    case 'http_error':
      return {
        status: reply.status,
        json: {
          error: {
            message: reply.message,
            type: reply.status >= 500 ? 'server_error' : 'invalid_request_error',
            param: null,
            code: null,
          },
        },
      };
    case 'stream_error': {
      const error = `data: ${JSON.stringify({ error: { message: reply.message, type: 'server_error', param: null, code: null } })}\n\n`;
      return {
        frames: [...opening, ...pieces(reply.textBefore ?? '').map((p) => chunk({ content: p })), error],
        hang: false,
      };
    }
    case 'cut':
      return { frames: [...opening, ...pieces(reply.textBefore ?? '').map((p) => chunk({ content: p }))], hang: false };
  }
}

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const server = await startFakeModelServer(
    { path: '/v1/chat/completions', parse: (body, headers) => parse(options, body, headers), render },
    options,
  );
  return Object.assign(server, { url: `${server.origin}/v1` });
}
