/**
 * Moves as the daemon runs them (docs/daemon.md, "Moves"): every move is a UUID-tagged task,
 * moves are NOT serialised (overlapping moves write targets in turn), and each one reports
 * move_started / move_completed / move_cancelled / move_failed to the updates listeners.
 * A move is a list of steps evaluated on the world tick.
 */
import { randomUUID } from 'node:crypto';
import { minJerk } from './curves.ts';
import type { BodyTargetInput } from './models.ts';
import { interpolatePose } from './pose.ts';
import type { BodyState, World } from './world.ts';

export type Step =
  | { kind: 'goto'; target: BodyTargetInput; duration: number | ((from: BodyState) => number) }
  | { kind: 'wait'; duration: number }
  | { kind: 'do'; run: () => void }
  /** Replaced, when reached, by the steps it returns: branches decided at run time. */
  | { kind: 'branch'; choose: () => Step[] }
  | { kind: 'trajectory'; duration: number; sample: (t: number) => BodyTargetInput };

export type MoveEventType = 'move_started' | 'move_completed' | 'move_cancelled' | 'move_failed';

export interface MoveEvent {
  type: MoveEventType;
  uuid: string;
  details: string;
}

export type MoveEnd = 'completed' | 'cancelled' | 'failed';

interface Active {
  uuid: string;
  listed: boolean;
  steps: Step[];
  /** Start time of the current step, null until the step begins. */
  stepStart: number | null;
  cursor: number;
  from: BodyState | null;
  duration: number;
  done: Array<(end: MoveEnd) => void>;
}

export interface MoveRunner {
  /** `listed` moves come from REST: they appear in /running and emit events. */
  start(steps: Step[], nowS: number, listed?: boolean): string;
  stop(uuid: string): boolean;
  listed(): string[];
  anyRunning(): boolean;
  failAll(details: string): void;
  tick(nowS: number): void;
  whenDone(uuid: string): Promise<MoveEnd>;
  onEvent(listener: (event: MoveEvent) => void): () => void;
}

const BLEND_IN_S = 0.3;

export function createMoveRunner(world: World, defer: (fn: () => void) => void): MoveRunner {
  const active = new Map<string, Active>();
  const listeners = new Set<(event: MoveEvent) => void>();

  const emit = (move: Active, type: MoveEventType, details = ''): void => {
    if (!move.listed) return;
    for (const l of listeners) l({ type, uuid: move.uuid, details });
  };
  const finish = (move: Active, end: MoveEnd, details = ''): void => {
    active.delete(move.uuid);
    emit(
      move,
      end === 'completed' ? 'move_completed' : end === 'cancelled' ? 'move_cancelled' : 'move_failed',
      details,
    );
    for (const d of move.done) d(end);
  };

  const runner: MoveRunner = {
    start(steps, nowS, listed = true) {
      const move: Active = {
        uuid: randomUUID(),
        listed,
        steps: [...steps],
        stepStart: null,
        cursor: nowS,
        from: null,
        duration: 0,
        done: [],
      };
      active.set(move.uuid, move);
      // The real task notifies from inside the asyncio task, after the handler has returned.
      defer(() => emit(move, 'move_started'));
      return move.uuid;
    },
    stop(uuid) {
      const move = active.get(uuid);
      if (!move || !move.listed) return false;
      finish(move, 'cancelled');
      return true;
    },
    listed: () => [...active.values()].filter((m) => m.listed).map((m) => m.uuid),
    anyRunning: () => active.size > 0,
    failAll(details) {
      for (const move of [...active.values()]) finish(move, 'failed', details);
    },
    tick(nowS) {
      for (const move of [...active.values()]) if (advance(move, nowS, world)) finish(move, 'completed');
    },
    whenDone(uuid) {
      const move = active.get(uuid);
      if (!move) return Promise.resolve('completed');
      return new Promise((resolve) => move.done.push(resolve));
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return runner;
}

/** Writes this tick's target for the move; true once every step has run. */
function advance(move: Active, nowS: number, world: World): boolean {
  for (;;) {
    const step = move.steps[0];
    if (!step) return true;
    if (step.kind === 'do' || step.kind === 'branch') {
      move.steps.shift();
      if (step.kind === 'do') step.run();
      else move.steps.unshift(...step.choose());
      continue;
    }
    if (move.stepStart === null) begin(move, step, world);
    const start = move.stepStart ?? nowS;
    const elapsed = nowS - start;
    const finished = elapsed >= move.duration;
    const s = move.duration > 0 ? Math.min(1, elapsed / move.duration) : 1;
    write(move, step, finished ? 1 : s, Math.min(elapsed, move.duration), world);
    if (!finished) return false;
    move.cursor = start + move.duration;
    move.stepStart = null;
    move.steps.shift();
  }
}

function begin(move: Active, step: Step, world: World): void {
  move.stepStart = move.cursor;
  const p = world.present;
  move.from = { head: p.head, antennas: [...p.antennas], bodyYaw: p.bodyYaw };
  if (step.kind === 'goto')
    move.duration = typeof step.duration === 'number' ? step.duration : step.duration(move.from);
  else if (step.kind === 'wait' || step.kind === 'trajectory') move.duration = step.duration;
}

function write(move: Active, step: Step, s: number, t: number, world: World): void {
  const from = move.from;
  if (!from) return;
  if (step.kind === 'goto') {
    world.setTarget(gotoSample(from, step.target, minJerk(s)));
  } else if (step.kind === 'trajectory') {
    const sample = step.sample(t);
    const blend = minJerk(Math.min(1, t / BLEND_IN_S));
    world.setTarget(blend >= 1 ? sample : gotoSample(from, sample, blend));
  }
}

/** GotoMove semantics: a field without a target holds its start value for the whole move. */
export function gotoSample(from: BodyState, to: BodyTargetInput, k: number): BodyTargetInput {
  const ant = to.antennas ?? from.antennas;
  const bodyTo = to.bodyYaw ?? from.bodyYaw;
  return {
    head: interpolatePose(from.head, to.head ?? from.head, k),
    antennas: [from.antennas[0] + (ant[0] - from.antennas[0]) * k, from.antennas[1] + (ant[1] - from.antennas[1]) * k],
    bodyYaw: from.bodyYaw + (bodyTo - from.bodyYaw) * k,
  };
}
