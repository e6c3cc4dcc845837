import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiStreamDecoder } from '../openai-stream.ts';
import { readSse } from '../sse.ts';
import type { ProviderEvent } from '../types.ts';
import { OPENAI_TEXT_STREAM, OPENAI_TOOL_STREAM, streamShape } from './documented-streams.ts';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.ts';
import { chunked, rawFrames } from './raw-stream.ts';
import { eventually } from '../../../testing/eventually.ts';

async function decode(frames: readonly string[], chunkSize = 7): Promise<ProviderEvent[]> {
  const decoder = new OpenAiStreamDecoder();
  const events: ProviderEvent[] = [];
  for await (const frame of readSse(chunked(frames, chunkSize))) events.push(...decoder.feed(frame.data));
  events.push(...decoder.end());
  return events;
}

const request = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  stream: true,
  messages: [{ role: 'user', content }],
  ...extra,
});

let fake: FakeOpenAi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the documented OpenAI streams', () => {
  it('decode to text and a done event', async () => {
    const events = await decode(OPENAI_TEXT_STREAM);
    const text = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
    expect(text).toBe('Hello! How can I help?');
    expect(events[0]).toEqual({ type: 'start', model: 'gpt-4o-mini' });
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'stop' });
  });

  it('decode the function-calling stream to one whole tool call', async () => {
    const events = await decode(OPENAI_TOOL_STREAM, 3);
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', call: { id: 'call_doc1', name: 'get_weather', input: { location: 'Paris, France' } } },
    ]);
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'tool_calls' });
  });

  it('tolerate explicit nulls in later tool-call pieces, as some servers send them', async () => {
    const withNulls = OPENAI_TOOL_STREAM.map((f) =>
      f.replace(
        /\{"index":0,"function":\{"arguments":/g,
        '{"index":0,"id":null,"type":null,"function":{"name":null,"arguments":',
      ),
    );
    const calls = (await decode(withNulls)).filter((e) => e.type === 'tool_call');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ call: { id: 'call_doc1', name: 'get_weather' } });
  });
});

describe('the fake OpenAI-compatible server', () => {
  it('streams a text answer shaped like the documented chunk stream', async () => {
    fake = await startFakeOpenAi({ script: () => ({ kind: 'answer', text: 'Hello! How can I help?' }) });
    const frames = await rawFrames(`${fake.url}/chat/completions`, request('hi'));
    expect(streamShape(frames)).toEqual(streamShape(OPENAI_TEXT_STREAM));
  });

  it('streams a tool call shaped like the documented function-calling stream', async () => {
    fake = await startFakeOpenAi({
      script: () => ({ kind: 'answer', toolCalls: [{ name: 'get_weather', input: { location: 'Paris, France' } }] }),
    });
    const frames = await rawFrames(`${fake.url}/chat/completions`, request('weather?'));
    expect(streamShape(frames)).toEqual(streamShape(OPENAI_TOOL_STREAM));
    const calls = (await decode(frames)).filter((e) => e.type === 'tool_call');
    expect(calls).toMatchObject([{ call: { name: 'get_weather', input: { location: 'Paris, France' } } }]);
  });

  it('turns "look left" into a look tool call by default', async () => {
    fake = await startFakeOpenAi();
    const events = await decode(await rawFrames(`${fake.url}/chat/completions`, request('please look left')));
    expect(events.filter((e) => e.type === 'tool_call')).toMatchObject([
      { call: { name: 'look', input: { yaw: 30 } } },
    ]);
    expect(fake.requests[0]?.lastUserText).toBe('please look left');
  });

  it('refuses a wrong key with 401 and an OpenAI error body', async () => {
    fake = await startFakeOpenAi({ key: 'sk-right' });
    const res = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-wrong' },
      body: JSON.stringify(request('hi')),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key', type: 'invalid_request_error' } });
  });

  it('refuses a tool message that answers no preceding tool call', async () => {
    fake = await startFakeOpenAi();
    const body = request('hi', {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_x', content: '{}' },
      ],
    });
    const res = await fetch(`${fake.url}/chat/completions`, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/role 'tool'/);
  });

  it('fails inside the stream or cuts it off when scripted to', async () => {
    fake = await startFakeOpenAi({
      script: () => ({ kind: 'stream_error', message: 'model crashed', textBefore: 'Hel' }),
    });
    const failed = await decode(await rawFrames(`${fake.url}/chat/completions`, request('hi')));
    expect(failed.at(-1)).toEqual({ type: 'error', error: 'model crashed' });
    fake.setScript(() => ({ kind: 'cut', textBefore: 'Hello' }));
    const cut = await decode(await rawFrames(`${fake.url}/chat/completions`, request('hi')));
    expect(cut.at(-1)).toMatchObject({ type: 'error', error: expect.stringMatching(/ended before/) });
  });

  it('holds a stream after the given frames until released', async () => {
    fake = await startFakeOpenAi({ script: () => ({ kind: 'answer', text: 'Hello! How can I help?' }) });
    fake.hold(2);
    const res = await fetch(`${fake.url}/chat/completions`, { method: 'POST', body: JSON.stringify(request('hi')) });
    expect(await fake.held()).toBe(2);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let before = '';
    while (before.split('\n\n').length - 1 < 2) before += new TextDecoder().decode((await reader.read()).value);
    // Held: exactly the two frames are out (the role frame and the first piece of text).
    expect(before.split('\n\n').filter((f) => f !== '')).toHaveLength(2);
    fake.release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    const frames = `${before}${rest}`.split('\n\n').filter((f) => f.trim() !== '').map((f) => `${f}\n\n`);
    expect(streamShape(frames)).toEqual(streamShape(OPENAI_TEXT_STREAM));
  });

  it('hangs until the client goes away', async () => {
    fake = await startFakeOpenAi({ script: () => ({ kind: 'hang' }) });
    const controller = new AbortController();
    const res = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(request('hi')),
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('chat.completion.chunk');
    expect(fake.hanging()).toBe(1);
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    await eventually(() => fake?.hanging() === 0, { what: 'fake?.hanging() to be 0' });
  });
});
