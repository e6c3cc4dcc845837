import { describe, expect, it } from 'vitest';
import type {
  PlatformChat,
  PlatformChatEvent,
  PlatformChatInput,
  PlatformToolOutcome,
} from '../../contract/platform.ts';
import { TOOL_CALL_LIMIT, tooManyTurnCalls } from './answer-limits.ts';
import { createPlatformProvider, platformMessages } from './platform.ts';
import { collect } from './testing/collect.ts';
import type { ToolResultMessage, ToolSpec } from './types.ts';

/** A chat double: records its input and plays `script` with it (which may run tools). */
function chat(
  script: (input: PlatformChatInput) => AsyncGenerator<PlatformChatEvent>,
): PlatformChat & { inputs: PlatformChatInput[] } {
  const inputs: PlatformChatInput[] = [];
  return {
    inputs,
    chat(input) {
      inputs.push(input);
      return script(input);
    },
  };
}

const LOOK: ToolSpec = {
  name: 'look',
  description: 'Turn the head.',
  inputSchema: { type: 'object', properties: { yaw: { type: 'number' } } },
};

describe('platform provider', () => {
  it('streams text and reasoning as they arrive and ends with the stream', async () => {
    const p = chat(async function* () {
      yield { type: 'reasoning', text: 'hmm' };
      yield { type: 'text', text: 'Hel' };
      yield { type: 'text', text: 'lo' };
      yield { type: 'done', stopReason: 'end_turn' };
    });
    const out = await collect(createPlatformProvider(p), { tools: [LOOK] });
    expect(out.events.map((e) => e.type)).toEqual(['start', 'reasoning', 'text', 'text', 'done']);
    expect(out.text).toBe('Hello');
    expect(out.calls).toEqual([]);
    expect(p.inputs[0]!.tools).toEqual([LOOK]);
  });

  it("runs the robot's tools through the turn loop's runTool, images included", async () => {
    const ran: unknown[] = [];
    const runTool = (call: { id: string; name: string; input: unknown }): Promise<ToolResultMessage> => {
      ran.push(call);
      return Promise.resolve({
        id: call.id,
        name: call.name,
        content: '{"ok":true}',
        isError: false,
        images: [{ mediaType: 'image/png', base64: 'AAAA' }],
      });
    };
    const outcomes: unknown[] = [];
    const p = chat(async function* (input) {
      outcomes.push(await input.runTool({ name: 'look', toolUseId: 't1', input: { yaw: 10 } }));
      yield { type: 'done', stopReason: 'end_turn' };
    });
    await collect(createPlatformProvider(p), { tools: [LOOK], runTool });
    expect(ran).toEqual([{ id: 't1', name: 'look', input: { yaw: 10 } }]);
    expect(outcomes).toEqual([
      { isError: false, text: '{"ok":true}', images: [{ mediaType: 'image/png', base64: 'AAAA' }] },
    ]);
  });

  it("shows the platform's own tools as remote tool rows", async () => {
    const call = { name: 'recall', toolUseId: 's1', input: undefined };
    const p = chat(async function* () {
      yield { type: 'tool_start', call };
      yield { type: 'tool_end', call, outcome: { result: 'memo' } };
      yield { type: 'done', stopReason: 'end_turn' };
    });
    const out = await collect(createPlatformProvider(p));
    expect(out.events.filter((e) => e.type === 'remote_tool')).toEqual([
      { type: 'remote_tool', call: { id: 's1', name: 'recall', input: {} } },
      { type: 'remote_tool', call: { id: 's1', name: 'recall', input: {} }, outcome: { result: 'memo' } },
    ]);
  });

  it('ends with the chat error, and with an error when the chat ends without a last event', async () => {
    const failed = chat(async function* () {
      yield { type: 'text', text: 'part' };
      yield { type: 'error', error: 'the chat stream lost frames (seq 1 was followed by 3)' };
    });
    expect((await collect(createPlatformProvider(failed))).last).toEqual({
      type: 'error',
      error: 'the chat stream lost frames (seq 1 was followed by 3)',
    });
    // eslint-disable-next-line require-yield
    const silent = chat(async function* () {
      return;
    });
    expect((await collect(createPlatformProvider(silent))).last).toMatchObject({ type: 'error' });
  });

  it('sends the system prompt first and earlier tool steps as text', () => {
    const messages = platformMessages({
      system: 'You are a robot.',
      messages: [
        { role: 'user', content: 'look left' },
        { role: 'assistant', text: 'ok', toolCalls: [{ id: 'a', name: 'look', input: { yaw: 30 } }] },
        { role: 'tool', results: [{ id: 'a', name: 'look', content: '{"ok":true}', isError: false }] },
      ],
      tools: [],
      signal: new AbortController().signal,
    });
    expect(messages).toEqual([
      { role: 'system', content: 'You are a robot.' },
      { role: 'user', content: 'look left' },
      { role: 'assistant', content: 'ok\n[called look {"yaw":30}]' },
      { role: 'user', content: '[result of look] {"ok":true}' },
    ]);
  });

  it(`runs at most ${TOOL_CALL_LIMIT} robot tool calls in one turn, answering the rest as refused`, async () => {
    let ran = 0;
    const runTool = (call: { id: string; name: string }): Promise<ToolResultMessage> => {
      ran += 1;
      return Promise.resolve({ id: call.id, name: call.name, content: '{"ok":true}', isError: false });
    };
    const outcomes: PlatformToolOutcome[] = [];
    const p = chat(async function* (input) {
      for (let i = 0; i < TOOL_CALL_LIMIT + 3; i += 1)
        outcomes.push(await input.runTool({ name: 'look', toolUseId: `t${i}`, input: {} }));
      yield { type: 'done', stopReason: 'end_turn' };
    });
    expect((await collect(createPlatformProvider(p), { tools: [LOOK], runTool })).last?.type).toBe('done');
    expect(ran).toBe(TOOL_CALL_LIMIT);
    expect(outcomes.slice(TOOL_CALL_LIMIT)).toEqual(Array(3).fill({ isError: true, text: tooManyTurnCalls }));
  });
});
