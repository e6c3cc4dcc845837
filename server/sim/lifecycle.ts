/**
 * Daemon lifecycle (docs/daemon.md, "Motors and lifecycle"): start/stop/restart run as background jobs
 * polled at /api/apps/job-status/{id}, one at a time (409 "Daemon is busy." otherwise). The
 * backend stays "ready" (routes answer) through the stop sequence and only then goes down;
 * going down drops the state streams. Unlike the real mockup daemon, start after stop comes
 * back as a mockup again instead of failing on the missing serial port (docs/daemon.md, "Motors and lifecycle").
 */
import { createJobs, type JobCommand, type JobInfo } from './jobs.ts';
import type { MoveRunner } from './moves.ts';
import { resetToSleepSteps, wakeUpSteps, type SequenceDeps } from './sequences.ts';
import type { Timers } from './timers.ts';

export type DaemonState = 'not_initialized' | 'starting' | 'running' | 'stopping' | 'stopped' | 'error';
export type { JobCommand, JobInfo } from './jobs.ts';

export interface Lifecycle {
  readonly state: DaemonState;
  /** Backend routes answer only when ready; otherwise 503 "Backend not running". */
  readonly ready: boolean;
  readonly busy: boolean;
  /** Bumped each time the backend goes down; sockets bound to an older backend are dead. */
  readonly generation: number;
  /** Runs one job; undefined when another one is in flight. */
  runJob(command: JobCommand, work: () => Promise<void>): string | undefined;
  job(id: string): JobInfo | undefined;
  start(wakeUp: boolean): Promise<void>;
  /** `abrupt` skips the short teardown delay: the backend dies on the spot (fault injection). */
  stop(gotoSleep: boolean, abrupt?: boolean): Promise<void>;
  restart(abrupt?: boolean): Promise<void>;
  onDown(listener: () => void): void;
}

export interface LifecycleDeps {
  moves: MoveRunner;
  timers: Timers;
  sequences: SequenceDeps;
  monoS(): number;
  /** A fresh backend: mockup resets the motor mode and forgets tracking. */
  freshBackend(): void;
}

const STARTING_MS = 300;
const TEARDOWN_MS = 100;

export function createLifecycle(deps: LifecycleDeps): Lifecycle {
  let state: DaemonState = 'running';
  let ready = true;
  let generation = 0;
  const jobs = createJobs();
  const downListeners: Array<() => void> = [];

  const teardown = (): void => {
    ready = false;
    generation += 1;
    deps.moves.failAll('Backend not running');
    for (const l of downListeners) l();
    state = 'stopped';
  };

  const runSteps = async (steps: ReturnType<typeof wakeUpSteps>): Promise<void> => {
    await deps.moves.whenDone(deps.moves.start(steps, deps.monoS(), false));
  };

  const life: Lifecycle = {
    get state() {
      return state;
    },
    get ready() {
      return ready;
    },
    get busy() {
      return jobs.busy;
    },
    get generation() {
      return generation;
    },
    runJob: (command, work) => jobs.run(command, work),
    job: (id) => jobs.get(id),
    async start(wakeUp) {
      if (state === 'running') return;
      state = 'starting';
      await deps.timers.sleep(STARTING_MS);
      deps.freshBackend();
      ready = true;
      if (wakeUp) {
        deps.sequences.setMode('enabled');
        await runSteps(wakeUpSteps(deps.sequences));
      }
      state = 'running';
    },
    async stop(gotoSleep, abrupt = false) {
      if (state === 'stopped') return;
      const sleepFirst = gotoSleep && state !== 'stopping' && state !== 'error';
      state = 'stopping';
      if (sleepFirst) await runSteps(resetToSleepSteps(deps.sequences));
      else if (!abrupt) await deps.timers.sleep(TEARDOWN_MS);
      teardown();
    },
    restart(abrupt = false) {
      if (state === 'stopped') return Promise.resolve();
      if (!abrupt) return life.stop(false).then(() => life.start(false));
      // Synchronous teardown, so the caller already sees "starting" when it answers.
      teardown();
      return life.start(false);
    },
    onDown: (listener) => void downListeners.push(listener),
  };
  return life;
}
