/**
 * The turn loop's own bounds on one model answer (providers/answer-limits.ts): whatever the
 * provider streams, a turn keeps at most a log row's worth of text and runs at most
 * TOOL_CALL_LIMIT tools per answer, and a runaway stream is closed rather than read on.
 */
import { describe, expect, it } from 'vitest';
import { ROW_TEXT_LIMIT } from './log-row.ts';
import { tooManyCalls, TOOL_CALL_LIMIT } from './providers/answer-limits.ts';
import type { ModelProvider, ProviderEvent } from './providers/types.ts';
import { runTurnLoop, type TurnSink } from './turn-loop.ts';
import { objectSchema, type AgentTool } from './tools/types.ts';

/** A provider that streams `events` and records whether its stream was closed early. */
function scripted(
  events: () => Iterable<ProviderEvent>,
): ModelProvider & { closed: () => boolean; read: () => number } {
  let closed = false;
  let read = 0;
  return {
    kind: 'openai',
    model: 'm',
    async *stream() {
      try {
        for (const event of events()) {
          read += 1;
          yield event;
        }
      } finally {
        closed = true;
      }
    },
    closed: () => closed,
    read: () => read,
  };
}

const quietSink: TurnSink = { text() {}, reasoning() {}, stepEnd() {}, toolStart() {}, toolEnd() {} };

function run(provider: ModelProvider, tools: AgentTool[] = []) {
  return runTurnLoop({
    provider,
    system: 'You are a small robot.',
    messages: [{ role: 'user', content: 'hi' }],
    tools,
    ctx: { signal: new AbortController().signal, fleet: false, persona: 'dashboard', credential: 'token' },
    sink: quietSink,
  });
}

describe('turn loop bounds', () => {
  it('stops a model whose answer runs past a log row, and closes its stream', async () => {
    const provider = scripted(function* () {
      yield { type: 'start' };
      // A hundred times the limit, then an ordinary end: a loop without the bound reads it all.
      for (let i = 0; i < (100 * ROW_TEXT_LIMIT) / 100; i += 1) yield { type: 'text', text: 'x'.repeat(100) };
      yield { type: 'done', stopReason: 'stop' };
    });
    const result = await run(provider);
    expect(result).toMatchObject({ ok: false, error: `the model's answer ran past ${ROW_TEXT_LIMIT} characters` });
    expect(result.text.length).toBe(ROW_TEXT_LIMIT);
    expect(provider.closed()).toBe(true);
    expect(provider.read()).toBeLessThan(ROW_TEXT_LIMIT / 100 + 5);
  });

  it(`runs no tool of an answer that asks for more than ${TOOL_CALL_LIMIT}`, async () => {
    let runs = 0;
    const look: AgentTool = {
      name: 'look',
      description: 'move the head',
      inputSchema: objectSchema({}),
      run: () => {
        runs += 1;
        return Promise.resolve({ ok: true });
      },
    };
    const provider = scripted(function* () {
      yield { type: 'start' };
      for (let i = 0; i <= TOOL_CALL_LIMIT; i += 1)
        yield { type: 'tool_call', call: { id: `c${i}`, name: 'look', input: {} } };
      yield { type: 'done', stopReason: 'tool_calls' };
    });
    const result = await run(provider, [look]);
    expect(result).toMatchObject({ ok: false, error: tooManyCalls });
    expect(runs).toBe(0);
    expect(provider.closed()).toBe(true);
  });
});
