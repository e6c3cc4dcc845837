/**
 * The agent's turn doors report finished turns, and only turns that ran: a refusal before the
 * turn (busy, no model) reports nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../agent/agent.ts';
import type { AskStatus } from '../contract/agent.ts';
import { AppError } from '../errors.ts';
import { watchTurns, type FinishedTurn } from './turn-watch.ts';

function fakeAgent(behaviour: { askError?: string | null; fleet?: 'ok' | 'fail' | 'unconfigured' }): Agent {
  let last: AskStatus = {
    running: false,
    prompt: null,
    answer: null,
    startedAt: null,
    finishedAt: null,
    error: null,
    rowId: null,
  };
  let settled = Promise.resolve();
  const runFleetTurn = async () => {
    if (behaviour.fleet === 'unconfigured') throw new AppError('NOT_CONFIGURED', 'no model');
    if (behaviour.fleet === 'fail') throw new Error('the model went quiet');
    return { text: 'done over there' };
  };
  const agent = {
    ask: {
      ask(prompt: string) {
        if (prompt === 'busy') throw new AppError('CONFLICT', 'busy');
        settled = Promise.resolve().then(() => {
          const error = behaviour.askError ?? null;
          last = { ...last, prompt, answer: error ? null : 'It is sunny.', error };
        });
        return { ok: true as const, started: 7 };
      },
      last: () => last,
      running: () => false,
      settled: () => settled,
    },
    chat: {
      chat: async () => ({ ok: true, result: 'hi', reply: 'hi', seconds: 1 }),
      runFleetTurn,
    },
    runFleetTurn,
    start: async () => {},
  };
  return agent as unknown as Agent;
}

async function turns(agent: Agent, act: (watched: Agent) => Promise<unknown>): Promise<FinishedTurn[]> {
  const seen: FinishedTurn[] = [];
  const watched = watchTurns(agent, (t) => seen.push(t));
  await act(watched).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 0));
  return seen;
}

describe('watchTurns', () => {
  it('reports an Ask once it has its answer or its error', async () => {
    expect(await turns(fakeAgent({}), async (a) => a.ask.ask('weather?', 'token'))).toEqual([
      { persona: 'dashboard', ok: true, text: 'It is sunny.' },
    ]);
    expect(await turns(fakeAgent({ askError: 'watchdog: no answer' }), async (a) => a.ask.ask('x', 'token'))).toEqual([
      { persona: 'dashboard', ok: false, text: 'watchdog: no answer' },
    ]);
    expect(await turns(fakeAgent({}), async (a) => a.ask.ask('busy', 'token'))).toEqual([]);
  });

  it('reports fleet turns from both doors, not a refusal before the turn', async () => {
    expect(await turns(fakeAgent({}), (a) => a.chat.chat('hello', 'token'))).toEqual([
      { persona: 'fleet', ok: true, text: 'hi' },
    ]);
    expect(await turns(fakeAgent({ fleet: 'fail' }), (a) => a.runFleetTurn({ prompt: 'x', depth: 1 }))).toEqual([
      { persona: 'fleet', ok: false, text: 'the model went quiet' },
    ]);
    expect(await turns(fakeAgent({ fleet: 'unconfigured' }), (a) => a.runFleetTurn({ prompt: 'x', depth: 1 }))).toEqual(
      [],
    );
  });

  it('keeps the rest of the agent as it is', () => {
    const agent = fakeAgent({});
    const watched = watchTurns(agent, () => {});
    expect(watched.start).toBe(agent.start);
    expect(watched.ask.last).toBe(agent.ask.last);
  });
});
