import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from './anthropic.ts';
import { createOpenAiProvider } from './openai-compatible.ts';
import { collect } from './testing/collect.ts';
import { startFakeAnthropic } from './testing/fake-anthropic.ts';
import type { FakeModelServer } from './testing/fake-model-server.ts';
import { startFakeOpenAi } from './testing/fake-openai.ts';
import type { FakeReply, Script } from './testing/fake-script.ts';
import type { ChatMessage, ModelProvider, ToolSpec } from './types.ts';
import { eventually } from '../../testing/eventually.ts';

const LOOK: ToolSpec = {
  name: 'look',
  description: 'move the head',
  inputSchema: { type: 'object', properties: { yaw: { type: 'number' } } },
};

interface Flavour {
  name: string;
  start(script?: Script): Promise<{ fake: FakeModelServer; provider: ModelProvider }>;
}

const flavours: Flavour[] = [
  {
    name: 'OpenAI-compatible',
    async start(script) {
      const fake = await startFakeOpenAi({ key: 'sk-test', ...(script ? { script } : {}) });
      return { fake, provider: createOpenAiProvider({ baseUrl: fake.url, model: 'gpt-test', key: 'sk-test' }) };
    },
  },
  {
    name: 'Anthropic',
    async start(script) {
      const fake = await startFakeAnthropic({ key: 'sk-ant-test', ...(script ? { script } : {}) });
      return {
        fake,
        provider: createAnthropicProvider({ baseUrl: fake.url, model: 'claude-test', key: 'sk-ant-test' }),
      };
    },
  },
];

let open: FakeModelServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const reply =
  (r: FakeReply): Script =>
  () =>
    r;

describe.each(flavours)('$name provider against its fake server', (flavour) => {
  const start = async (script?: Script) => {
    const started = await flavour.start(script);
    open = started.fake;
    return started;
  };

  it('streams text and reasoning and names the model', async () => {
    const { provider } = await start(reply({ kind: 'answer', reasoning: 'hmm, a greeting', text: 'Hello there!' }));
    const out = await collect(provider);
    expect(out.text).toBe('Hello there!');
    expect(out.reasoning).toBe('hmm, a greeting');
    expect(out.events[0]).toMatchObject({ type: 'start', model: expect.stringMatching(/test/) });
    expect(out.last?.type).toBe('done');
  });

  it('asks for a tool and accepts the result on the next call, with the image', async () => {
    const { provider, fake } = await start();
    const first = await collect(provider, { messages: [{ role: 'user', content: 'look left' }], tools: [LOOK] });
    expect(first.calls).toMatchObject([{ name: 'look', input: { yaw: 30 } }]);
    expect(fake.requests[0]?.toolNames).toEqual(['look']);
    const call = first.calls[0]!;
    const history: ChatMessage[] = [
      { role: 'user', content: 'look left' },
      { role: 'assistant', text: first.text, toolCalls: [call] },
      {
        role: 'tool',
        results: [
          {
            id: call.id,
            name: 'look',
            content: '{"ok":true}',
            isError: false,
            images: [{ mediaType: 'image/jpeg', base64: '/9j/' }],
          },
        ],
      },
    ];
    const second = await collect(provider, { messages: history, tools: [LOOK] });
    expect(second.text).toBe('Done.');
    expect(fake.requests[1]).toMatchObject({ toolResults: [{ id: call.id }], images: 1 });
  });

  it('reports an HTTP error with the vendor message', async () => {
    const { provider } = await start(reply({ kind: 'http_error', status: 500, message: 'the GPU caught fire' }));
    const out = await collect(provider);
    expect(out.last).toEqual({ type: 'error', error: 'the model server answered 500: the GPU caught fire' });
  });

  it('reports an error sent inside the stream, and a cut-off stream', async () => {
    const { provider, fake } = await start(reply({ kind: 'stream_error', message: 'Overloaded', textBefore: 'Hi' }));
    expect((await collect(provider)).last).toMatchObject({
      type: 'error',
      error: expect.stringContaining('Overloaded'),
    });
    fake.setScript(reply({ kind: 'cut', textBefore: 'Hello' }));
    expect((await collect(provider)).last).toMatchObject({
      type: 'error',
      error: expect.stringMatching(/ended before/),
    });
  });

  it('ends a hanging stream with the abort reason', async () => {
    const { provider, fake } = await start(reply({ kind: 'hang' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('watchdog: no answer')), 100);
    const out = await collect(provider, { signal: controller.signal });
    expect(out.last).toEqual({ type: 'error', error: 'watchdog: no answer' });
    await eventually(() => fake.hanging() === 0, { what: 'fake.hanging() to be 0' });
  });
});

describe('provider transport failures', () => {
  it('says the server cannot be reached', async () => {
    const provider = createOpenAiProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x' });
    const out = await collect(provider);
    expect(out.last).toMatchObject({
      type: 'error',
      error: expect.stringMatching(/cannot reach the model server at http:\/\/127\.0\.0\.1:9/),
    });
  });

  it('reports a wrong key as the 401 it is', async () => {
    const fake = await startFakeOpenAi({ key: 'sk-right' });
    open = fake;
    const provider = createOpenAiProvider({ baseUrl: fake.url, model: 'x', key: 'sk-wrong' });
    expect((await collect(provider)).last).toEqual({
      type: 'error',
      error: 'the model server answered 401: Incorrect API key provided.',
    });
  });
});
