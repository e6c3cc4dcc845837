/**
 * The restart loop of the console: it runs the cockpit server in a process of its own and, when
 * that process dies (a fatal error, a kill, an out-of-memory), starts a fresh one after a short
 * delay. The delay grows while the server keeps dying young, so a crash loop does not spin the
 * CPU, and falls back to the first step once a run has lasted. A server that dies before its
 * very first start completes is not restarted: that is a start failure (a bad setting, a port in
 * use) the operator has to see, not a crash.
 *
 * With `spare`, a second process waits beside the running one with its code already loaded
 * (loading and compiling the sources is most of a start) and takes over after a crash, so the
 * server answers again sooner; a new spare is made once the new server runs. It costs one idle
 * process's memory.
 *
 * How the process is made is injected (child_process in main/cockpit-child.ts, Electron's
 * utility process in main/electron/server.ts), and so are the timers, so the schedule is tested
 * without waiting.
 */
import type { Log } from '../server/index.ts';

/** What a started server process reports back. */
export interface ChildEvents<Ready> {
  /** The server listens and answers. */
  ready(info: Ready): void;
  /** The process is gone; code and signal as child_process reports them. */
  exit(code: number | null, signal: string | null): void;
  /** A spare has loaded and waits for go() (a spare is used only after it said so). */
  standingBy(): void;
}

export interface SupervisedChild {
  readonly pid: number | undefined;
  /** A spare: start serving now. */
  go?(): void;
  /** Asks for a graceful stop (SIGTERM). */
  stop(): void;
  /** Ends it at once (SIGKILL), when a graceful stop takes too long. */
  kill(): void;
}

/** 'serve' starts at once; 'spare' loads and waits for go(). */
export type StartMode = 'serve' | 'spare';

export type StartChild<Ready> = (events: ChildEvents<Ready>, mode: StartMode) => SupervisedChild;

export interface SupervisorTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: SupervisorTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RestartPolicy {
  /** The delay after a crash that ended a lasting run: well under the 2 s the console promises. */
  firstDelayMs: number;
  /** The ceiling of the doubling delay during a crash loop. */
  maxDelayMs: number;
  /** A run at least this long ends a crash loop (the next delay is firstDelayMs again). */
  stableMs: number;
  /** How long a graceful stop may take before the process is killed. */
  stopGraceMs: number;
}

export const DEFAULT_POLICY: RestartPolicy = { firstDelayMs: 250, maxDelayMs: 30_000, stableMs: 10_000, stopGraceMs: 10_000 };

/** The delay before the next start, after `quickCrashes` short runs in a row (0 after a lasting run). */
export function restartDelay(quickCrashes: number, policy: RestartPolicy = DEFAULT_POLICY): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(quickCrashes, 30));
}

export interface ExitInfo {
  pid: number | undefined;
  code: number | null;
  signal: string | null;
}

export type SupervisorState<Ready> =
  | { kind: 'starting'; restarts: number }
  | { kind: 'running'; restarts: number; pid: number | undefined; info: Ready }
  | { kind: 'restarting'; restarts: number; delayMs: number; exit: ExitInfo }
  | { kind: 'failed'; restarts: number; exit: ExitInfo }
  | { kind: 'stopped'; restarts: number };

export interface SupervisorOptions<Ready> {
  start: StartChild<Ready>;
  log: Log;
  timers?: SupervisorTimers;
  policy?: Partial<RestartPolicy>;
  /** Keep a loaded spare process to take over after a crash (start() must support 'spare'). */
  spare?: boolean;
}

export interface Supervisor<Ready> {
  /** Starts the first process; resolves with its ready info, rejects if it dies before being ready. */
  start(): Promise<Ready>;
  /** Stops the loop and the running process (gracefully, then by force). */
  stop(): Promise<void>;
  state(): SupervisorState<Ready>;
  /** A loaded spare waits to take over (with `spare`). */
  spareStanding(): boolean;
  /** Every change of state (a restart scheduled, a process ready, ...). */
  onState(listener: (state: SupervisorState<Ready>) => void): () => void;
}

export function createSupervisor<Ready>(options: SupervisorOptions<Ready>): Supervisor<Ready> {
  const timers = options.timers ?? realTimers;
  const policy = { ...DEFAULT_POLICY, ...options.policy };
  const log = options.log;
  const listeners = new Set<(state: SupervisorState<Ready>) => void>();
  let state: SupervisorState<Ready> = { kind: 'stopped', restarts: 0 };
  let child: SupervisedChild | undefined;
  let restartTimer: unknown;
  let quickCrashes = 0;
  let everReady = false;
  let stopping: Promise<void> | undefined;
  let onStopped: (() => void) | undefined;
  let first: { resolve(info: Ready): void; reject(error: Error): void } | undefined;

  const set = (next: SupervisorState<Ready>) => {
    state = next;
    for (const listener of listeners) listener(next);
  };

  interface Run {
    child: SupervisedChild;
    /** Serving (or starting to), rather than waiting as the spare. */
    active: boolean;
    startedAt: number;
    ready: boolean;
    gone: boolean;
    standing: boolean;
  }
  let spare: Run | undefined;

  function launch(mode: StartMode): Run {
    // `child` is set before any event can arrive (they come from I/O, never during start()).
    const run = { active: mode === 'serve', startedAt: timers.now(), ready: false, gone: false, standing: false } as Run;
    run.child = options.start(
      {
        ready(info) {
          if (!run.active || run.gone || stopping) return;
          run.ready = true;
          everReady = true;
          set({ kind: 'running', restarts: state.restarts, pid: run.child.pid, info });
          first?.resolve(info);
          first = undefined;
          if (options.spare && !spare) spare = launch('spare');
        },
        standingBy() {
          run.standing = true;
        },
        exit(code, signal) {
          if (run.gone) return;
          run.gone = true;
          const exit: ExitInfo = { pid: run.child.pid, code, signal };
          if (!run.active) {
            // A spare that died is replaced when the next server runs; the running one is unaffected.
            if (spare === run) spare = undefined;
            if (!stopping) log.warn('the spare cockpit server process exited', { ...exit });
            return;
          }
          child = undefined;
          if (stopping) return onStopped?.();
          onCrash(run, exit);
        },
      },
      mode,
    );
    return run;
  }

  function spawnOne(): void {
    set({ kind: 'starting', restarts: state.restarts });
    const waiting = spare;
    spare = undefined;
    if (waiting?.standing && !waiting.gone) {
      waiting.active = true;
      waiting.startedAt = timers.now();
      child = waiting.child;
      waiting.child.go?.();
      return;
    }
    // A spare still loading would start no sooner than a fresh process: replace it (its exit
    // needs no handling, hence gone).
    if (waiting) {
      waiting.gone = true;
      waiting.child.stop();
    }
    child = launch('serve').child;
  }

  function onCrash(run: Run, exit: ExitInfo): void {
    if (!everReady) {
      log.error('the cockpit server stopped before it was ready; not restarting it', { ...exit });
      set({ kind: 'failed', restarts: state.restarts, exit });
      first?.reject(new Error(`the cockpit server exited before it was ready (${describeExit(exit)})`));
      first = undefined;
      return;
    }
    const lasted = run.ready && timers.now() - run.startedAt >= policy.stableMs;
    quickCrashes = lasted ? 0 : quickCrashes + 1;
    const delayMs = restartDelay(lasted ? 0 : quickCrashes, policy);
    const restarts = state.restarts + 1;
    log.warn('the cockpit server exited; restarting it', { ...exit, delayMs, restart: restarts, spare: spare !== undefined });
    set({ kind: 'restarting', restarts, delayMs, exit });
    restartTimer = timers.setTimeout(() => {
      restartTimer = undefined;
      if (!stopping) spawnOne();
    }, delayMs);
  }

  return {
    start() {
      if (state.kind !== 'stopped' || stopping) return Promise.reject(new Error('the supervisor is already running'));
      const ready = new Promise<Ready>((resolve, reject) => (first = { resolve, reject }));
      spawnOne();
      return ready;
    },
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        const finish = () => {
          set({ kind: 'stopped', restarts: state.restarts });
          resolve();
        };
        if (restartTimer !== undefined) timers.clearTimeout(restartTimer);
        spare?.child.stop();
        spare = undefined;
        first?.reject(new Error('the supervisor was stopped'));
        first = undefined;
        const running = child;
        if (!running) return finish();
        const force = timers.setTimeout(() => {
          log.warn('the cockpit server did not stop in time; killing it', { pid: running.pid });
          running.kill();
        }, policy.stopGraceMs);
        onStopped = () => {
          timers.clearTimeout(force);
          finish();
        };
        running.stop();
      });
      return stopping;
    },
    state: () => state,
    spareStanding: () => spare?.standing === true && !spare.gone,
    onState(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`;
}
