/**
 * The thinker persona (reference-notes.md §4): every `thinkerIntervalSeconds` (the first cycle
 * after min(interval, 15) s) it makes exactly ONE small expressive action, rotating emotion →
 * antenna wiggle → gentle look → small body turn, and writes one journal row (persona
 * "thinker"). It registers with the persona registry, so demo mode and the latched stop pause
 * it (a pause also cuts a cycle short); it holds still while the robot sleeps or an operator
 * is busy (thinker-gates.ts). Its state is shown in the state object under services.thinker.
 */
import type { RobotState, ServiceState } from '../contract/state.ts';
import type { EventFrame } from '../contract/ws.ts';
import type { Log } from '../log.ts';
import type { Arbiter } from '../motion/arbiter.ts';
import type { MoveLibraryCache } from '../motion/move-library.ts';
import type { PersonaRegistry } from '../motion/personas.ts';
import type { StopLatch } from '../motion/stop-latch.ts';
import type { AgentLog } from './agent-log.ts';
import type { ModelProvider } from './providers/types.ts';
import { watchLatch } from './stop-signal.ts';
import { ROTATION, thinkerTools, type ActionKind, type ThinkerControl } from './thinker-actions.ts';
import { actByModel, actByRules, type ActionOutcome } from './thinker-cycle.ts';
import { checkGates } from './thinker-gates.ts';
import { startWatchdog, type WatchdogLimits } from './watchdog.ts';

export interface ThinkerDeps {
  /** Control's moves plus the registry, the arbiter (is a move running?) and the latch. */
  control: ThinkerControl & {
    personas: Pick<PersonaRegistry, 'register' | 'reasons'>;
    arbiter: Pick<Arbiter, 'current'>;
    latch: Pick<StopLatch, 'engaged'>;
  };
  moves: Pick<MoveLibraryCache, 'get'>;
  state: () => RobotState | undefined;
  services: Map<string, ServiceState>;
  /** The event log's receipts (operator activity). */
  recentEvents: (limit: number) => readonly EventFrame[];
  agentLog: AgentLog;
  model: { configured(): boolean; provider(): ModelProvider };
  askRunning?: () => boolean;
  intervalSeconds: number;
  log: Log;
  random?: () => number;
  now?: () => number;
  limits?: WatchdogLimits;
}

export type CycleOutcome = { acted: true; kind: ActionKind; rowId: number } | { acted: false; reason: string };

export interface Thinker {
  start(): void;
  stop(): void;
  /** One cycle now (the schedule calls it). */
  cycle(): Promise<CycleOutcome>;
}

export const FIRST_CYCLE_MAX_S = 15;
const THINKER_LIMITS: WatchdogLimits = { overallMs: 30_000, idleMs: 20_000 };

export function createThinker(deps: ThinkerDeps): Thinker {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const tools = thinkerTools(deps.control, deps.moves);
  let started = false;
  let paused = false;
  let busy = false;
  let index = 0;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: AbortController | undefined;
  let unregister: (() => void) | undefined;
  const show = (state: ServiceState['state'], detail: string) => deps.services.set('thinker', { state, detail });
  const pauseReason = () => (deps.control.personas.reasons().includes('stop') ? 'the latched stop' : 'demo mode');

  const act = async (kind: ActionKind): Promise<ActionOutcome> => {
    const controller = (inFlight = new AbortController());
    const unwatch = watchLatch(deps.control.latch, controller);
    const watchdog = startWatchdog(deps.limits ?? THINKER_LIMITS, (reason) => controller.abort(reason));
    const ctx = { signal: controller.signal, fleet: false, persona: 'thinker', credential: 'system' as const };
    try {
      if (!deps.model.configured()) return await actByRules(kind, tools[kind], { moves: deps.moves, random }, ctx);
      const provider = deps.model.provider();
      return await actByModel(kind, tools[kind], { provider, moves: deps.moves, random, watchdog }, ctx);
    } finally {
      watchdog.stop();
      unwatch();
      inFlight = undefined;
    }
  };

  const cycle = async (): Promise<CycleOutcome> => {
    if (!started) return { acted: false, reason: 'the thinker is stopped' };
    if (paused) return { acted: false, reason: `paused by ${pauseReason()}` };
    if (busy) return { acted: false, reason: 'the previous cycle is still running' };
    const verdict = checkGates({
      state: deps.state(),
      moveRunning: deps.control.arbiter.current() !== undefined,
      askRunning: deps.askRunning?.() ?? false,
      events: deps.recentEvents(50),
      now: now(),
    });
    if (!verdict.act) {
      show(verdict.pause ? 'paused' : 'running', verdict.pause ? verdict.reason : `skipped a cycle: ${verdict.reason}`);
      return { acted: false, reason: verdict.reason };
    }
    const kind = ROTATION[index % ROTATION.length] as ActionKind;
    index += 1;
    busy = true;
    try {
      const outcome = await act(kind);
      const row = deps.agentLog.add({ role: 'assistant', persona: 'thinker', text: outcome.text, tool: outcome.tool });
      row.finish();
      show(paused ? 'paused' : 'running', `last: ${outcome.text}`);
      return { acted: true, kind, rowId: row.id };
    } finally {
      busy = false;
    }
  };

  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      cycle()
        .catch((error: unknown) => deps.log.warn('thinker cycle failed', { error: String(error) }))
        .finally(() => {
          if (started) schedule(deps.intervalSeconds * 1000);
        });
    }, ms);
  };

  return {
    start() {
      if (started) return;
      started = true;
      const first = Math.min(deps.intervalSeconds, FIRST_CYCLE_MAX_S);
      show('running', `first cycle in ${first} s, then every ${deps.intervalSeconds} s`);
      unregister = deps.control.personas.register('thinker', {
        pause: () => {
          paused = true;
          inFlight?.abort(new Error(`paused by ${pauseReason()}`));
          show('paused', `paused by ${pauseReason()}`);
        },
        resume: () => {
          paused = false;
          show('running', `resumed; a cycle every ${deps.intervalSeconds} s`);
        },
      });
      schedule(first * 1000);
    },
    stop() {
      started = false;
      clearTimeout(timer);
      inFlight?.abort(new Error('the thinker stopped'));
      unregister?.();
      show('off', 'stopped');
    },
    cycle,
  };
}
