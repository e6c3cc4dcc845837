/**
 * Recorded moves and the robot's lifecycle: express, wake, sleep, motor mode. Wake and sleep
 * follow docs/daemon.md, "Duties of the cockpit": wake = motors enabled THEN the wake_up move (which never enables
 * them itself); sleep = the goto_sleep move, which ends with the motors disabled.
 */
import type { MotorMode } from '../contract/state.ts';
import type { CredentialKind } from '../contract/ws.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { MoveLibraryCache } from './move-library.ts';
import type { Arbiter } from './arbiter.ts';
import { receipt, type Emit } from './receipts.ts';
import type { StopLatch } from './stop-latch.ts';

export interface RobotControlDeps {
  daemon: Pick<DaemonClient, 'setMotorMode'>;
  arbiter: Arbiter;
  moves: Pick<MoveLibraryCache, 'find' | 'learnSeconds'>;
  emit: Emit;
  /** The latched stop, counted before the library read: a stop during it ends the move (arbiter.ts, askedAt). */
  latch?: Pick<StopLatch, 'engagements'>;
  /** Times a whole play of a move, for its length on the Moves page; Date.now when omitted. */
  now?: () => number;
}

/**
 * Recorded moves run a few seconds to ~20 s (docs/daemon.md, "Move libraries"), but their length
 * is not known before a first play: past 30 s the move keeps its hold while the daemon still
 * lists it as running, up to the longest a play may be taken for a move's length
 * (move-durations.ts, PLAUSIBLE_S).
 */
export const RECORDED_MOVE_TIMING = { maxSeconds: 30, runningLimitSeconds: 120 } as const;
const LIFECYCLE_MAX_S = 10;

export async function express(
  deps: RobotControlDeps,
  name: string,
  credential: CredentialKind,
): Promise<{ uuid: string; name: string; dataset: string }> {
  // A cold library read takes seconds: a stop and its resume may come meanwhile.
  const askedAt = deps.latch?.engagements();
  // 404 MOVE_UNKNOWN before anything moves; the library is cached (move-library.ts).
  const entry = await deps.moves.find(name);
  const now = deps.now ?? Date.now;
  const move = await deps.arbiter.run({
    label: `express ${name}`,
    hold: `emotion:${name}`,
    ...RECORDED_MOVE_TIMING,
    ...(askedAt === undefined ? {} : { askedAt }),
    start: (d) => d.playMove(entry.dataset, entry.name),
  });
  // From the daemon taking the move to its end: a cancelled or cut-short play says nothing of its length.
  const startedAt = now();
  void move.done
    .then((end) => {
      if (end === 'completed') deps.moves.learnSeconds(entry, (now() - startedAt) / 1000);
    })
    .catch(() => undefined);
  deps.emit(receipt('express', `express ${name}`, credential, { name, dataset: entry.dataset, family: entry.family }));
  return { uuid: move.uuid, name, dataset: entry.dataset };
}

export async function wake(deps: RobotControlDeps, credential: CredentialKind): Promise<{ uuid: string }> {
  const move = await deps.arbiter.run({
    label: 'wake',
    hold: 'emotion:wake_up',
    maxSeconds: LIFECYCLE_MAX_S,
    start: async (d, stillWanted) => {
      await d.setMotorMode('enabled');
      // A stop while the motors were being enabled: the wake-up move is not sent.
      stillWanted();
      return d.wakeUp();
    },
  });
  deps.emit(receipt('wake', 'wake: motors on, wake-up move', credential, { motorMode: 'enabled' }));
  return { uuid: move.uuid };
}

export async function sleep(deps: RobotControlDeps, credential: CredentialKind): Promise<{ uuid: string }> {
  const move = await deps.arbiter.run({
    label: 'sleep',
    hold: 'emotion:goto_sleep',
    maxSeconds: LIFECYCLE_MAX_S,
    start: (d) => d.gotoSleep(),
  });
  deps.emit(receipt('sleep', 'sleep: sleep pose, then motors relaxed', credential, {}));
  return { uuid: move.uuid };
}

/**
 * Not a move, so the latched stop does not refuse it: relaxing the motors after an emergency
 * stop is exactly what an operator may want. Gravity compensation is a 500 on a default real
 * robot (docs/daemon.md, "Motors and lifecycle"); the daemon's refusal travels back as DAEMON_ERROR with its text.
 */
export async function motors(
  deps: RobotControlDeps,
  mode: MotorMode,
  credential: CredentialKind,
): Promise<{ mode: MotorMode }> {
  await deps.daemon.setMotorMode(mode);
  deps.emit(receipt('motors', `motors ${mode.replace('_', ' ')}`, credential, { mode }));
  return { mode };
}
