/**
 * The thinker persona (docs/contract.md, "How the desktop server behaves"): every `thinkerIntervalSeconds` (the first cycle
 * after min(interval, 15) s) it makes exactly ONE small expressive action, rotating emotion →
 * antenna wiggle → gentle look → small body turn, and writes one journal row (persona
 * "thinker"). It registers with the autonomy registry, so demo mode and the latched stop pause
 * it (a pause also cuts a cycle short); it holds still while the robot sleeps or an operator
 * is busy (thinker-gates.ts). Its state is shown in the state object under services.thinker.
 *
 * A model that fails is rested: the rules act alone for 1 min after a failure, then 2, 4… up
 * to 30 min after more in a row, and the model is asked again when that time is up or its
 * settings change. Without the rest, a model server that is down or refusing was asked every
 * cycle, and one that hung held each cycle until the 20 s watchdog, with no gesture at all.
 */
import type { RobotState, ServiceState } from '../../contract/state.ts';
import type { EventFrame } from '../../contract/ws.ts';
import type { Log } from '../../log.ts';
import type { Arbiter } from '../../motion/arbiter.ts';
import type { MoveLibraryCache } from '../../motion/move-library.ts';
import type { AutonomyRegistry } from '../../motion/autonomy.ts';
import type { StopLatch } from '../../motion/stop-latch.ts';
import type { AgentLog } from '../../agent/agent-log.ts';
import type { ModelProvider } from '../../agent/providers/types.ts';
import { watchLatch } from '../../agent/stop-signal.ts';
import { ROTATION, thinkerTools, type ActionKind, type ThinkerControl } from './thinker-actions.ts';
import { actByModel, actByRules, type ActionOutcome } from './thinker-cycle.ts';
import { checkGates } from './thinker-gates.ts';
import { startWatchdog, type WatchdogLimits } from '../../agent/watchdog.ts';

export interface ThinkerDeps {
  /** Control's moves plus the registry, the arbiter (is a move running?) and the latch. */
  control: ThinkerControl & {
    autonomy: Pick<AutonomyRegistry, 'register' | 'reasons'>;
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

/** The model's rest after its first failure in a row, doubled per further failure, and the longest. */
export const MODEL_REST_FIRST_MS = 60_000;
export const MODEL_REST_MAX_MS = 30 * 60_000;

export function createThinker(deps: ThinkerDeps): Thinker {
  return new ThinkerLoop(deps);
}

class ThinkerLoop implements Thinker {
  private readonly tools: ReturnType<typeof thinkerTools>;
  private readonly now: () => number;
  private readonly random: () => number;
  private started = false;
  private paused = false;
  private busy = false;
  private index = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: AbortController | undefined;
  private unregister: (() => void) | undefined;
  /** Failures in a row of `restedModel`, and until when the rules act alone. */
  private modelFailures = 0;
  private modelRestsUntil = 0;
  private restedModel: ModelProvider | undefined;

  constructor(private readonly deps: ThinkerDeps) {
    this.tools = thinkerTools(deps.control, deps.moves);
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    const { intervalSeconds } = this.deps;
    const first = Math.min(intervalSeconds, FIRST_CYCLE_MAX_S);
    this.show('running', `first cycle in ${first} s, then every ${intervalSeconds} s`);
    this.unregister = this.deps.control.autonomy.register('thinker', {
      pause: () => {
        this.paused = true;
        this.inFlight?.abort(new Error(`paused by ${this.pauseReason()}`));
        this.show('paused', `paused by ${this.pauseReason()}`);
      },
      resume: () => {
        this.paused = false;
        this.show('running', `resumed; a cycle every ${intervalSeconds} s`);
      },
    });
    this.schedule(first * 1000);
  }

  stop(): void {
    this.started = false;
    clearTimeout(this.timer);
    this.inFlight?.abort(new Error('the thinker stopped'));
    this.unregister?.();
    this.show('off', 'stopped');
  }

  async cycle(): Promise<CycleOutcome> {
    if (!this.started) return { acted: false, reason: 'the thinker is stopped' };
    if (this.paused) return { acted: false, reason: `paused by ${this.pauseReason()}` };
    if (this.busy) return { acted: false, reason: 'the previous cycle is still running' };
    const verdict = checkGates({
      state: this.deps.state(),
      moveRunning: this.deps.control.arbiter.current() !== undefined,
      askRunning: this.deps.askRunning?.() ?? false,
      events: this.deps.recentEvents(50),
      now: this.now(),
    });
    if (!verdict.act) {
      this.show(
        verdict.pause ? 'paused' : 'running',
        verdict.pause ? verdict.reason : `skipped a cycle: ${verdict.reason}`,
      );
      return { acted: false, reason: verdict.reason };
    }
    const kind = ROTATION[this.index % ROTATION.length] as ActionKind;
    this.index += 1;
    this.busy = true;
    try {
      const outcome = await this.act(kind);
      const row = this.deps.agentLog.add({
        role: 'assistant',
        persona: 'thinker',
        text: outcome.text,
        tool: outcome.tool,
      });
      row.finish();
      this.show(this.paused ? 'paused' : 'running', `last: ${outcome.text}`);
      return { acted: true, kind, rowId: row.id };
    } finally {
      this.busy = false;
    }
  }

  /** One action under its own watchdog; the latched stop or a pause cuts it short. */
  private async act(kind: ActionKind): Promise<ActionOutcome> {
    const controller = (this.inFlight = new AbortController());
    const unwatch = watchLatch(this.deps.control.latch, controller);
    let watchdogFired = false;
    const watchdog = startWatchdog(this.deps.limits ?? THINKER_LIMITS, (reason) => {
      watchdogFired = true;
      controller.abort(reason);
    });
    const ctx = { signal: controller.signal, fleet: false, persona: 'thinker', credential: 'system' as const };
    const base = { moves: this.deps.moves, random: this.random };
    try {
      if (!this.deps.model.configured()) return await actByRules(kind, this.tools[kind], base, ctx);
      const provider = this.deps.model.provider();
      if (provider !== this.restedModel) this.modelFailures = 0;
      if (this.modelFailures > 0 && this.now() < this.modelRestsUntil) {
        const outcome = await actByRules(kind, this.tools[kind], base, ctx);
        const seconds = Math.ceil((this.modelRestsUntil - this.now()) / 1000);
        const why = `the model failed ${this.modelFailures} time${this.modelFailures === 1 ? '' : 's'} in a row and is asked again in ${seconds} s`;
        return { ...outcome, text: `${outcome.text} (${why}; the rules chose)` };
      }
      const outcome = await actByModel(kind, this.tools[kind], { ...base, provider, watchdog }, ctx);
      // A pause or the latched stop says nothing about the model; its watchdog firing does.
      if (watchdogFired || !controller.signal.aborted)
        this.restModel(provider, watchdogFired || outcome.modelFailed === true);
      return outcome;
    } finally {
      watchdog.stop();
      unwatch();
      this.inFlight = undefined;
    }
  }

  /** Counts a failure in a row and sets the rest after it, or clears both after an answer. */
  private restModel(provider: ModelProvider, failed: boolean): void {
    this.restedModel = provider;
    this.modelFailures = failed ? this.modelFailures + 1 : 0;
    if (!failed) return;
    const rest = Math.min(MODEL_REST_FIRST_MS * 2 ** (this.modelFailures - 1), MODEL_REST_MAX_MS);
    this.modelRestsUntil = this.now() + rest;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.cycle()
        .catch((error: unknown) => this.deps.log.warn('thinker cycle failed', { error: String(error) }))
        .finally(() => {
          if (this.started) this.schedule(this.deps.intervalSeconds * 1000);
        });
    }, ms);
  }

  private show(state: ServiceState['state'], detail: string): void {
    this.deps.services.set('thinker', { state, detail });
  }

  private pauseReason(): string {
    return this.deps.control.autonomy.reasons().includes('stop') ? 'the latched stop' : 'demo mode';
  }
}
