/**
 * A model server that does not stop: one line without end, an event without its blank line, a
 * tool call whose arguments go on, more tool calls or content blocks than an answer holds. Each
 * is refused once it passes its limit (answer-limits.ts, sse.ts), with a sentence, instead of
 * being gathered until the turn's watchdog fires.
 */
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from './anthropic-stream.ts';
import { argsTooLong, tooManyCalls, TOOL_ARGS_LIMIT, TOOL_CALL_LIMIT } from './answer-limits.ts';
import { OpenAiStreamDecoder } from './openai-stream.ts';
import { createOpenAiProvider } from './openai-compatible.ts';
import { readSse, SSE_FRAME_LIMIT, type SseEvent } from './sse.ts';
import { collect } from './testing/collect.ts';

const encoder = new TextEncoder();

/**
 * A body that starts with `head` and then repeats `piece` up to 8 MiB, eight times any limit,
 * then ends: a reader without bounds reads it all and ends some other way, which the test sees.
 */
function flood(head: string, piece: string): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield encoder.encode(head);
    const chunk = encoder.encode(piece.repeat(Math.ceil((64 * 1024) / piece.length)));
    for (let sent = 0; sent < 8 * SSE_FRAME_LIMIT; sent += chunk.length) yield chunk;
  })();
}

async function readAll(body: AsyncIterable<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(body)) events.push(event);
  return events;
}

describe('SSE reader bounds', () => {
  it('fails on a line that never ends, once it passes 1 MiB', async () => {
    await expect(readAll(flood('data: {"x":1}\n\ndata: ', 'a'))).rejects.toThrow(
      'the server sent a line longer than 1 MiB',
    );
  });

  it('fails on an event whose data lines never reach a blank line', async () => {
    await expect(readAll(flood('', 'data: more\n'))).rejects.toThrow('the server sent an event longer than 1 MiB');
  });

  it('still reads a long line split across many chunks, and a CRLF split between chunks', async () => {
    const long = 'b'.repeat(SSE_FRAME_LIMIT - 10);
    const text = `data: ${long}\r\n\r\ndata: two\r`;
    const chunks = [...text.match(/[\s\S]{1,4096}/g)!, '\n\r', '\n'].map((c) => encoder.encode(c));
    const events = await readAll(
      (async function* () {
        yield* chunks;
      })(),
    );
    expect(events.map((e) => e.data.length)).toEqual([long.length, 3]);
    expect(events[1]!.data).toBe('two');
  });

  it('ends a provider turn with a sentence, and closes the body', async () => {
    let cancelled = false;
    const source = flood('data: ', 'z')[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel() {
        cancelled = true;
      },
    });
    const provider = createOpenAiProvider({
      baseUrl: 'http://model.invalid/v1',
      model: 'm',
      fetch: () => Promise.resolve(new Response(body, { headers: { 'content-type': 'text/event-stream' } })),
    });
    const out = await collect(provider);
    expect(out.last).toEqual({
      type: 'error',
      error: 'the model stream broke: the server sent a line longer than 1 MiB',
    });
    expect(cancelled).toBe(true);
  });
});

/** A tool call's piece; the first names the call, later ones only add to its arguments. */
const openAiCall = (index: number, args: string, first = true) =>
  JSON.stringify({
    choices: [
      {
        delta: {
          tool_calls: [
            {
              index,
              ...(first ? { id: `c${index}` } : {}),
              function: { ...(first ? { name: 'look' } : {}), arguments: args },
            },
          ],
        },
      },
    ],
  });

describe('OpenAI stream bounds', () => {
  it(`refuses an answer with more than ${TOOL_CALL_LIMIT} tool calls`, () => {
    const decoder = new OpenAiStreamDecoder();
    for (let i = 0; i < TOOL_CALL_LIMIT; i += 1)
      expect(decoder.feed(openAiCall(i, '{}'))).not.toContainEqual(expect.objectContaining({ type: 'error' }));
    expect(decoder.feed(openAiCall(TOOL_CALL_LIMIT, '{}')).at(-1)).toEqual({ type: 'error', error: tooManyCalls });
    expect(decoder.feed('[DONE]')).toEqual([]);
  });

  it('takes a call whose arguments run past the limit as invalid, and keeps reading the answer', () => {
    const decoder = new OpenAiStreamDecoder();
    decoder.feed(openAiCall(0, '{"yaw":"'));
    const piece = 'x'.repeat(8192);
    for (let sent = 0; sent <= TOOL_ARGS_LIMIT; sent += piece.length) decoder.feed(openAiCall(0, piece, false));
    decoder.feed(openAiCall(1, '{"yaw":5}'));
    const end = decoder.feed('[DONE]');
    expect(end).toEqual([
      { type: 'tool_call', call: { id: 'c0', name: 'look', input: {} }, invalid: argsTooLong },
      { type: 'tool_call', call: { id: 'c1', name: 'look', input: { yaw: 5 } } },
      { type: 'done', stopReason: 'stop' },
    ]);
  });
});

const anthropic = (decoder: AnthropicStreamDecoder, type: string, body: Record<string, unknown>) =>
  decoder.feed(type, JSON.stringify({ type, ...body }));

describe('Anthropic stream bounds', () => {
  it(`refuses an answer with more than ${TOOL_CALL_LIMIT} tool_use blocks`, () => {
    const decoder = new AnthropicStreamDecoder();
    for (let i = 0; i < TOOL_CALL_LIMIT; i += 1) {
      anthropic(decoder, 'content_block_start', {
        index: i,
        content_block: { type: 'tool_use', id: `t${i}`, name: 'look' },
      });
      expect(anthropic(decoder, 'content_block_stop', { index: i })).toHaveLength(1);
    }
    const start = { index: TOOL_CALL_LIMIT, content_block: { type: 'tool_use', id: 'tx', name: 'look' } };
    expect(anthropic(decoder, 'content_block_start', start)).toEqual([{ type: 'error', error: tooManyCalls }]);
  });

  it('refuses an answer that opens blocks without end', () => {
    const decoder = new AnthropicStreamDecoder();
    let last: unknown;
    for (let i = 0; i < 1000 && last === undefined; i += 1)
      last = anthropic(decoder, 'content_block_start', { index: i, content_block: { type: 'text', text: '' } })[0];
    expect(last).toEqual({ type: 'error', error: 'the model opened more than 64 content blocks in one answer' });
  });

  it('takes a tool_use whose input runs past the limit as invalid', () => {
    const decoder = new AnthropicStreamDecoder();
    anthropic(decoder, 'content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: 't0', name: 'look' },
    });
    const piece = 'y'.repeat(8192);
    for (let sent = 0; sent <= TOOL_ARGS_LIMIT; sent += piece.length)
      anthropic(decoder, 'content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: piece } });
    expect(anthropic(decoder, 'content_block_stop', { index: 0 })).toEqual([
      { type: 'tool_call', call: { id: 't0', name: 'look', input: {} }, invalid: argsTooLong },
    ]);
  });
});
