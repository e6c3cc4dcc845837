import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from '../anthropic-stream.ts';
import { readSse } from '../sse.ts';
import type { ProviderEvent } from '../types.ts';
import {
  ANTHROPIC_ERROR_FRAME,
  ANTHROPIC_TEXT_STREAM,
  ANTHROPIC_THINKING_STREAM,
  ANTHROPIC_TOOL_STREAM,
  streamShape,
} from './documented-streams.ts';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts';
import { chunked, rawFrames } from './raw-stream.ts';
import { eventually } from '../../../testing/eventually.ts';

async function decode(frames: readonly string[], chunkSize = 11): Promise<ProviderEvent[]> {
  const decoder = new AnthropicStreamDecoder();
  const events: ProviderEvent[] = [];
  for await (const frame of readSse(chunked(frames, chunkSize))) events.push(...decoder.feed(frame.event, frame.data));
  events.push(...decoder.end());
  return events;
}

const HEADERS = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' };
const body = (messages: unknown[]) => ({ model: 'claude-sonnet-4-5', max_tokens: 256, stream: true, messages });

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the documented Anthropic streams', () => {
  it('decode text deltas, ignoring ping, to a done event', async () => {
    const events = await decode(ANTHROPIC_TEXT_STREAM);
    expect(events).toEqual([
      { type: 'start', model: 'claude-sonnet-4-5' },
      { type: 'text', text: 'Hello' },
      { type: 'text', text: '!' },
      { type: 'done', stopReason: 'end_turn' },
    ]);
  });

  it('join input_json_delta pieces into one tool call at the block stop', async () => {
    const events = await decode(ANTHROPIC_TOOL_STREAM, 5);
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([
      {
        type: 'tool_call',
        call: { id: 'toolu_doc1', name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'fahrenheit' } },
      },
    ]);
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'tool_use' });
  });

  it('stream thinking deltas as reasoning and skip the signature', async () => {
    const events = await decode(ANTHROPIC_THINKING_STREAM);
    expect(
      events
        .filter((e) => e.type === 'reasoning')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('First, 27 * 453 = 12231.');
    expect(events.filter((e) => e.type === 'text')).toEqual([{ type: 'text', text: '27 * 453 = 12,231' }]);
  });

  it('end with the error event sent mid-stream', async () => {
    const events = await decode([...ANTHROPIC_TEXT_STREAM.slice(0, 4), ANTHROPIC_ERROR_FRAME]);
    expect(events.at(-1)).toEqual({ type: 'error', error: 'overloaded_error: Overloaded' });
  });
});

describe('the fake Anthropic server', () => {
  const url = () => `${fake?.url}/v1/messages`;

  it('streams a text answer shaped like the documented stream', async () => {
    fake = await startFakeAnthropic({ script: () => ({ kind: 'answer', text: 'Hello!' }) });
    const frames = await rawFrames(url(), body([{ role: 'user', content: 'hi' }]), HEADERS);
    expect(streamShape(frames)).toEqual(streamShape(ANTHROPIC_TEXT_STREAM));
  });

  it('streams text then a tool_use block shaped like the documented tool stream', async () => {
    fake = await startFakeAnthropic({
      script: () => ({
        kind: 'answer',
        text: 'Let me check the weather.',
        toolCalls: [{ name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'fahrenheit' } }],
      }),
    });
    const frames = await rawFrames(url(), body([{ role: 'user', content: 'weather?' }]), HEADERS);
    expect(streamShape(frames)).toEqual(streamShape(ANTHROPIC_TOOL_STREAM));
  });

  it('streams thinking shaped like the documented extended-thinking stream', async () => {
    fake = await startFakeAnthropic({
      script: () => ({ kind: 'answer', reasoning: 'First, 27 * 453', text: '12,231' }),
    });
    const frames = await rawFrames(url(), body([{ role: 'user', content: '27 * 453?' }]), HEADERS);
    // The documented thinking example has no ping; ours sends one after the first block start.
    expect(streamShape(frames).filter((f) => !f.startsWith('ping|'))).toEqual(streamShape(ANTHROPIC_THINKING_STREAM));
  });

  it('requires the key and the version header, with the documented error body', async () => {
    fake = await startFakeAnthropic({ key: 'sk-ant-test' });
    const post = (headers: Record<string, string>) =>
      fetch(url(), { method: 'POST', headers, body: JSON.stringify(body([{ role: 'user', content: 'hi' }])) });
    const wrongKey = await post({ ...HEADERS, 'x-api-key': 'nope' });
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    const noVersion = await post({ 'x-api-key': 'sk-ant-test' });
    expect(noVersion.status).toBe(400);
  });

  it('refuses a tool_use that is not answered in the next message', async () => {
    fake = await startFakeAnthropic();
    const res = await fetch(url(), {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify(
        body([
          { role: 'user', content: 'look left' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'look', input: { yaw: 30 } }] },
          { role: 'user', content: 'and?' },
        ]),
      ),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/without `tool_result`/);
  });

  it('reads tool results and images the way the runtime sends them', async () => {
    fake = await startFakeAnthropic();
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } };
    const frames = await rawFrames(
      url(),
      body([
        { role: 'user', content: 'snapshot' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'snapshot', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '{"ok":true}' }, image] },
          ],
        },
      ]),
      HEADERS,
    );
    expect(fake.requests[0]).toMatchObject({ toolResults: [{ id: 'toolu_1', isError: false }], images: 1 });
    expect(
      (await decode(frames))
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('Done.');
  });

  it('hangs after message_start until the client goes away', async () => {
    fake = await startFakeAnthropic({ script: () => ({ kind: 'hang' }) });
    const controller = new AbortController();
    const res = await fetch(url(), {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify(body([{ role: 'user', content: 'hi' }])),
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: message_start');
    expect(fake.hanging()).toBe(1);
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    await eventually(() => fake?.hanging() === 0, { what: 'fake?.hanging() to be 0' });
  });
});
