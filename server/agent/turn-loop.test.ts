/**
 * The turn loop's own bounds on one model answer (providers/answer-limits.ts): whatever the
 * provider streams, a turn keeps at most a log row's worth of text and runs at most
 * TOOL_CALL_LIMIT tools per answer, and a runaway stream is closed rather than read on.
 */
import { describe, expect, it } from 'vitest';
import { ROW_TEXT_LIMIT } from './log-row.ts';
import { tooManyCalls, TOOL_CALL_LIMIT } from './providers/answer-limits.ts';
import type { ModelProvider, ProviderEvent, ToolResultMessage } from './providers/types.ts';
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

  it('runs no more tools than the turn allows when the model calls them inside its stream', async () => {
    let runs = 0;
    const wiggle: AgentTool = {
      name: 'antennas',
      description: 'wiggle',
      inputSchema: objectSchema({}),
      run: () => {
        runs += 1;
        return Promise.resolve({ ok: true });
      },
    };
    const answers: ToolResultMessage[] = [];
    // The platform's agent calls the robot's tools in the middle of its one streamed answer.
    const provider: ModelProvider = {
      kind: 'platform',
      model: 'platform',
      async *stream(request) {
        yield { type: 'start' };
        for (let i = 0; i < 3; i += 1) {
          const answer = await request.runTool?.({ id: `c${i}`, name: 'antennas', input: {} });
          if (answer) answers.push(answer);
        }
        yield { type: 'done', stopReason: 'end_turn' };
      },
    };
    const result = await runTurnLoop({
      provider,
      system: 'You are a small robot.',
      messages: [{ role: 'user', content: 'one gesture' }],
      tools: [wiggle],
      ctx: { signal: new AbortController().signal, fleet: false, persona: 'thinker', credential: 'system' },
      sink: quietSink,
      maxSteps: 1,
      maxToolCalls: 1,
    });
    expect(result.ok).toBe(true);
    expect(runs).toBe(1);
    expect(answers.map((a) => a.isError)).toEqual([false, true, true]);
    expect(answers[1]?.content).toContain('at most 1 tool call(s)');
  });
});
