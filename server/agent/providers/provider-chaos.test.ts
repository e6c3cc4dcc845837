/**
 * A model server that sends odd frames (server/testing/mutating-fetch.ts in front of the fake
 * servers): a share of the stream's `data:` lines, and of the JSON error answers, have one or two
 * members swapped for values of other types. An owner may point the robot at any server that
 * claims to speak a protocol, so each stream must still end with exactly one `done` or `error`,
 * carry only the shapes of types.ts (the agent log and the dashboard read them as such), and
 * never report the decoder's own failure ("Cannot read properties of null") as the model's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mutatingFetch, type MutatingFetch } from '../../testing/mutating-fetch.ts';
import { createAnthropicProvider } from './anthropic.ts';
import { createOpenAiProvider } from './openai-compatible.ts';
import { collect } from './testing/collect.ts';
import { startFakeAnthropic } from './testing/fake-anthropic.ts';
import type { FakeModelServer } from './testing/fake-model-server.ts';
import { startFakeOpenAi } from './testing/fake-openai.ts';
import type { FakeReply } from './testing/fake-script.ts';
import type { ModelProvider, ProviderEvent, ToolSpec } from './types.ts';

const LOOK: ToolSpec = {
  name: 'look',
  description: 'move the head',
  inputSchema: { type: 'object', properties: { yaw: { type: 'number' } } },
};

/** What the fake says, turn by turn: every kind of reply, with tools and reasoning. */
const REPLIES: FakeReply[] = [
  { kind: 'answer', reasoning: 'a greeting', text: 'Hello there!' },
  { kind: 'answer', text: 'Turning.', toolCalls: [{ name: 'look', input: { yaw: 30 } }] },
  {
    kind: 'answer',
    toolCalls: [
      { name: 'look', input: { yaw: -30, pitch: 5 } },
      { name: 'look', input: {} },
    ],
  },
  { kind: 'stream_error', message: 'overloaded', textBefore: 'Let me' },
  { kind: 'http_error', status: 529, message: 'busy' },
  { kind: 'cut', textBefore: 'Half an' },
];

interface Flavour {
  name: string;
  start(fetch: MutatingFetch['fetch']): Promise<{ fake: FakeModelServer; provider: ModelProvider }>;
}

const flavours: Flavour[] = [
  {
    name: 'OpenAI-compatible',
    async start(fetch) {
      const fake = await startFakeOpenAi({ key: 'sk-test' });
      return { fake, provider: createOpenAiProvider({ baseUrl: fake.url, model: 'gpt-test', key: 'sk-test', fetch }) };
    },
  },
  {
    name: 'Anthropic',
    async start(fetch) {
      const fake = await startFakeAnthropic({ key: 'sk-ant-test' });
      const provider = createAnthropicProvider({ baseUrl: fake.url, model: 'claude-test', key: 'sk-ant-test', fetch });
      return { fake, provider };
    },
  },
];

let open: FakeModelServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** Each event has the shape types.ts promises, member by member. */
function expectShape(event: ProviderEvent, why: string): void {
  switch (event.type) {
    case 'start':
      expect(event.model === undefined || typeof event.model === 'string', why).toBe(true);
      break;
    case 'text':
    case 'reasoning':
      expect(typeof event.text, why).toBe('string');
      break;
    case 'tool_call':
    case 'remote_tool':
      expect([typeof event.call.id, typeof event.call.name], why).toEqual(['string', 'string']);
      break;
    case 'done':
      expect(typeof event.stopReason, why).toBe('string');
      break;
    case 'error':
      expect(typeof event.error, why).toBe('string');
      expect(event.error.length, why).toBeLessThanOrEqual(400);
      break;
  }
}

const SEEDS = [1, 2, 3];

describe.each(flavours)('$name provider against a server that sends odd frames', (flavour) => {
  it.each(SEEDS)('every stream ends once, with the documented shapes (seed %i)', async (seed) => {
    const chaos = mutatingFetch({ seed, rate: 0.3, frameRate: 0.15 });
    const { fake, provider } = await flavour.start(chaos.fetch);
    open = fake;
    const ends = new Set<string>();
    for (let turn = 0; turn < 60; turn += 1) {
      fake.setScript(() => REPLIES[turn % REPLIES.length] as FakeReply);
      const out = await collect(provider, { messages: [{ role: 'user', content: `turn ${turn}` }], tools: [LOOK] });
      const why = `turn ${turn}: ${JSON.stringify(out.events.slice(-2)).slice(0, 300)} after: ${chaos.mutations
        .slice(-3)
        .join(' | ')}`;
      const closing = out.events.filter((e) => e.type === 'done' || e.type === 'error');
      expect(closing, why).toHaveLength(1);
      expect(out.last, why).toBe(closing[0]);
      for (const event of out.events) expectShape(event, why);
      if (out.last?.type === 'error') {
        expect(out.last.error, why).not.toMatch(/Cannot read|is not iterable|is not a function|undefined|\[object /);
      }
      ends.add(out.last?.type ?? 'none');
    }
    expect([...ends].sort()).toEqual(['done', 'error']);
    expect(chaos.counts().mutated).toBeGreaterThan(20);

    // The same server, sane again: the provider holds no state across turns.
    chaos.setRate(0);
    fake.setScript(() => ({ kind: 'answer', text: 'Turning.', toolCalls: [{ name: 'look', input: { yaw: 30 } }] }));
    const calm = await collect(provider, { messages: [{ role: 'user', content: 'look left' }], tools: [LOOK] });
    expect(calm.text).toBe('Turning.');
    expect(calm.calls).toMatchObject([{ name: 'look', input: { yaw: 30 } }]);
    expect(calm.last?.type).toBe('done');
  });
});
