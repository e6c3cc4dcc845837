/**
 * The showcase reel runner: plays a script step by step through the arbiter, one at a time,
 * with a pause between steps. Start while it runs is a 409; abort (the route, the latched stop,
 * or a manual move taking the head over) ends it between or during a step. Its status is in the
 * robot core's services map under `reel`, so every dashboard sees the current step.
 */
import type { ReelStatus } from '../contract/motion.ts';
import type { ServiceState } from '../contract/state.ts';
import type { CredentialKind } from '../contract/ws.ts';
import { AppError, messageOf } from '../errors.ts';
import type { Log } from '../log.ts';
import type { AppLockGuard } from './app-lock.ts';
import type { Arbiter } from './arbiter.ts';
import type { MoveLibraryCache } from './move-library.ts';
import { receipt, type Emit } from './receipts.ts';
import { SHOWCASE_REEL, type ReelContext, type ReelStep } from './reel-script.ts';
import type { StopLatch } from './stop-latch.ts';

export interface Reel {
  start(credential: CredentialKind): ReelStatus;
  abort(reason: string, credential: CredentialKind): ReelStatus;
  status(): ReelStatus;
  /** Settles when the current run ends (tests, shutdown). */
  settled(): Promise<void>;
}

export interface ReelDeps {
  arbiter: Arbiter;
  moves: Pick<MoveLibraryCache, 'find'>;
  latch: StopLatch;
  /** Read before each step's move: an app or remote session that takes the robot mid-reel ends it (app-lock.ts). */
  appLock?: Pick<AppLockGuard, 'assertFree'>;
  services: Map<string, ServiceState>;
  emit: Emit;
  log: Log;
  script?: readonly ReelStep[];
  pauseMs?: number;
}

const OWNER = 'reel';

export function createReel(deps: ReelDeps): Reel {
  return new ReelRunner(deps);
}

class ReelRunner implements Reel {
  private readonly script: readonly ReelStep[];
  private readonly pauseMs: number;
  private state: ReelStatus;
  private run: { abort: AbortController; done: Promise<void>; credential: CredentialKind } | undefined;

  constructor(private readonly deps: ReelDeps) {
    this.script = deps.script ?? SHOWCASE_REEL;
    this.pauseMs = deps.pauseMs ?? 1500;
    this.state = {
      running: false,
      step: null,
      stepIndex: null,
      steps: this.script.length,
      startedAt: null,
      finishedAt: null,
      outcome: null,
    };
    this.publish();
  }

  start(credential: CredentialKind): ReelStatus {
    this.deps.latch.assertFree();
    if (this.run) throw new AppError('CONFLICT', 'the reel is already running; abort it first');
    const abort = new AbortController();
    this.update({
      running: true,
      step: null,
      stepIndex: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      outcome: null,
      reason: undefined,
    });
    const unclaim = this.deps.arbiter.claim(OWNER, (by) => this.abort(`taken over by ${by}`, credential, false));
    // Set before playing: an empty script finishes synchronously.
    const run = { abort, credential, done: Promise.resolve() };
    this.run = run;
    run.done = this.play(abort.signal).finally(unclaim);
    this.deps.emit(
      receipt('reel', `reel started (${this.script.length} steps)`, credential, {
        action: 'start',
        steps: this.script.length,
      }),
    );
    return this.status();
  }

  /** `cancelMove` is false when someone else already owns the head (a takeover). */
  abort(reason: string, credential: CredentialKind, cancelMove = true): ReelStatus {
    const run = this.run;
    if (!run || run.abort.signal.aborted) return this.status();
    run.abort.abort();
    this.update({ reason });
    if (cancelMove && this.deps.arbiter.current()?.label.startsWith('reel ')) void this.deps.arbiter.cancelCurrent();
    this.deps.emit(receipt('reel', `reel aborted (${reason})`, credential, { action: 'abort', step: this.state.step }));
    return this.status();
  }

  status(): ReelStatus {
    return { ...this.state };
  }

  settled(): Promise<void> {
    return this.run?.done ?? Promise.resolve();
  }

  private async play(signal: AbortSignal): Promise<void> {
    const context: ReelContext = { move: (request) => this.move(request, signal), moves: this.deps.moves, signal };
    try {
      for (const [index, step] of this.script.entries()) {
        if (signal.aborted) break;
        this.update({ step: step.label, stepIndex: index });
        await step.run(context);
        if (index < this.script.length - 1) await pause(this.pauseMs, signal);
      }
      this.finish(signal.aborted ? 'aborted' : 'completed');
    } catch (err) {
      if (signal.aborted) return this.finish('aborted');
      this.deps.log.warn('reel step failed', { step: this.state.step, error: messageOf(err) });
      this.finish('failed', messageOf(err));
    }
  }

  private async move(request: Parameters<ReelContext['move']>[0], signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    await this.deps.appLock?.assertFree();
    if (signal.aborted) return;
    const move = await this.deps.arbiter.run({ ...request, owner: OWNER });
    if (signal.aborted) {
      // Aborted while the move was being started: it must not play on alone.
      if (this.deps.arbiter.current()?.uuid === move.uuid) await this.deps.arbiter.cancelCurrent();
      return;
    }
    await Promise.race([
      move.done,
      new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
    ]);
  }

  private finish(outcome: 'completed' | 'aborted' | 'failed', error?: string): void {
    const credential = this.run?.credential ?? 'system';
    this.run = undefined;
    this.update({ running: false, outcome, finishedAt: new Date().toISOString(), ...(error ? { reason: error } : {}) });
    if (outcome === 'completed') this.deps.emit(receipt('reel', 'reel finished', 'system', { action: 'finished' }));
    if (outcome === 'failed')
      this.deps.emit(receipt('reel', `reel failed at ${this.state.step}: ${error}`, credential, { action: 'failed' }));
  }

  private update(patch: Partial<ReelStatus>): void {
    this.state = { ...this.state, ...patch };
    if (patch.reason === undefined && 'reason' in patch) delete this.state.reason;
    this.publish();
  }

  private publish(): void {
    const s = this.state;
    const detail = s.running
      ? `step ${(s.stepIndex ?? 0) + 1}/${s.steps}: ${s.step ?? 'starting'}`
      : s.outcome
        ? `last run ${s.outcome}${s.reason ? ` (${s.reason})` : ''}`
        : 'idle';
    const entry: ServiceState & ReelStatus = { ...s, state: s.running ? 'running' : 'off', detail };
    this.deps.services.set('reel', entry);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
