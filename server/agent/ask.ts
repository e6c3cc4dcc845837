/**
 * The dashboard's Ask (docs/contract.md: POST /api/control/ask, GET /api/ask/last): ONE turn at a
 * time for the persona "dashboard" with every tool, under the watchdog (60 s overall, 20 s of
 * model silence). It answers at once with the id of the prompt's row; the output streams to /ws
 * as agent_log rows, and /api/ask/last tells how the last turn ended.
 */
import type { CredentialKind } from '../contract/ws.ts';
import { AppError } from '../errors.ts';
import type { AskStatus } from '../contract/agent.ts';
import type { AgentRuntime, TurnResult } from './agent-runtime.ts';
import type { WatchdogLimits } from './watchdog.ts';

export interface AskRunner {
  /** 409 CONFLICT while a turn runs; 503 NOT_CONFIGURED without a model. */
  ask(prompt: string, credential: CredentialKind): { ok: true; started: number };
  last(): AskStatus;
  running(): boolean;
  /** Settles when the running turn (if any) has ended; for tests and shutdown. */
  settled(): Promise<void>;
}

export const ASK_LIMITS: WatchdogLimits = Object.freeze({ overallMs: 60_000, idleMs: 20_000 });

export function createAskRunner(deps: {
  runtime: AgentRuntime;
  limits?: WatchdogLimits;
  now?: () => number;
}): AskRunner {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  let status: AskStatus = {
    running: false,
    prompt: null,
    answer: null,
    startedAt: null,
    finishedAt: null,
    error: null,
    rowId: null,
  };
  let current: Promise<unknown> = Promise.resolve();

  const finish = (result: TurnResult) => {
    status = { ...status, running: false, answer: result.text, error: result.error ?? null, finishedAt: iso() };
  };
  return {
    ask(prompt, credential) {
      if (status.running) throw new AppError('CONFLICT', 'an Ask turn is already running; wait for it to finish');
      const turn = deps.runtime.start({
        persona: 'dashboard',
        prompt,
        fleet: false,
        credential,
        limits: deps.limits ?? ASK_LIMITS,
      });
      status = {
        running: true,
        prompt,
        answer: null,
        startedAt: iso(),
        finishedAt: null,
        error: null,
        rowId: turn.rowId,
      };
      current = turn.done.then(finish);
      return { ok: true, started: turn.rowId };
    },
    last: () => ({ ...status }),
    running: () => status.running,
    settled: () => current.then(() => undefined),
  };
}
