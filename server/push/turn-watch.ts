/**
 * Tells when an Ask or a fleet turn has ended, by wrapping the agent's three doors to a turn:
 * the dashboard's Ask, POST /api/chat and the relay's runFleetTurn. The agent itself stays as it
 * is; the wrapper is a copy of it whose doors report the result after they have it. A refusal
 * before any turn ran (409 busy, 503 no model) is not a finished turn and reports nothing.
 */
import type { Agent } from '../agent/agent.ts';
import { isAppError } from '../errors.ts';

export interface FinishedTurn {
  persona: 'dashboard' | 'fleet';
  ok: boolean;
  /** The answer, or why it failed. */
  text: string;
}

export function watchTurns(agent: Agent, onTurn: (turn: FinishedTurn) => void): Agent {
  const ask: Agent['ask'] = {
    ...agent.ask,
    ask(prompt, credential) {
      const started = agent.ask.ask(prompt, credential);
      void agent.ask.settled().then(() => {
        const last = agent.ask.last();
        onTurn({ persona: 'dashboard', ok: last.error === null, text: last.error ?? last.answer ?? '' });
      });
      return started;
    },
  };
  const chat: Agent['chat'] = {
    async chat(prompt, credential) {
      const answer = await agent.chat.chat(prompt, credential);
      onTurn({ persona: 'fleet', ok: answer.ok, text: answer.error ?? answer.reply });
      return answer;
    },
    async runFleetTurn(turn) {
      try {
        const result = await agent.chat.runFleetTurn(turn);
        onTurn({ persona: 'fleet', ok: true, text: result.text });
        return result;
      } catch (error) {
        if (!isAppError(error))
          onTurn({ persona: 'fleet', ok: false, text: (error as Error)?.message ?? String(error) });
        throw error;
      }
    },
  };
  return { ...agent, ask, chat, runFleetTurn: (turn) => chat.runFleetTurn(turn) };
}
