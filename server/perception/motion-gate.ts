/**
 * How the turn-toward-speaker controller meets motion: it may only turn when nothing else moves
 * (docs/contract.md, "How the desktop server behaves": "no move is running"), and its turn goes through the arbiter so there
 * is still ONE move owner (docs/daemon.md, "Duties of the cockpit"). The `doa` hold pauses face tracking for the
 * turn: at weight 1 the daemon ignores pose targets (docs/contract.md, "How the desktop server behaves").
 */
import { toRad } from '../daemon/units.ts';
import type { GotoRequest } from '../daemon/wire.ts';
import type { Control } from '../motion/control.ts';
import type { TurnPlan } from '../contract/perception.ts';
import { DOA_RULES } from './doa-rules.ts';

export interface MotionGate {
  /** Why a turn must wait (a move, the reel, the latched stop), or null when motion is free. */
  busy(): string | null;
  /** Starts the turn; resolves once the daemon accepted it. */
  turn(plan: TurnPlan): Promise<void>;
}

export const TURN_HOLD = 'doa';

export function turnGoto(plan: TurnPlan): GotoRequest {
  const goto: GotoRequest = {
    head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: toRad(plan.pitch), yaw: toRad(plan.headYaw) },
    duration: DOA_RULES.turnSeconds,
  };
  if (plan.bodyYaw !== null) goto.body_yaw = toRad(plan.bodyYaw);
  return goto;
}

/**
 * The gate over the desktop server's motion control: its arbiter, latched stop, reel and the
 * robot app lock (an app or remote session holding the robot is not fought for the head, as
 * manual motion is not: motion/app-lock.ts).
 */
export function motionGate(control: Pick<Control, 'arbiter' | 'latch' | 'reelRunner' | 'appLock'>): MotionGate {
  return {
    busy() {
      if (control.latch.engaged()) return 'stop latched';
      const lock = control.appLock.last();
      if (lock && lock.state !== 'free')
        return `robot in use (${lock.state}${lock.holder_name ? `: ${lock.holder_name}` : ''})`;
      const move = control.arbiter.current();
      if (move) return `move in flight: ${move.label}`;
      // Between two reel steps no move runs, but a turn would end the reel's claim on the head.
      if (control.reelRunner.status().running) return 'reel running';
      return null;
    },
    async turn(plan) {
      // A stop during the lock read ends the turn, even one resumed by then (arbiter.ts, askedAt).
      const askedAt = control.latch.engagements();
      // The last reading may be old: read it again before taking the head.
      await control.appLock.assertFree();
      await control.arbiter.run({
        label: 'turn toward speaker',
        hold: TURN_HOLD,
        maxSeconds: DOA_RULES.turnSeconds + 1,
        askedAt,
        // busy() was read before the lock: a move the operator started since keeps the head.
        onlyIfIdle: true,
        start: (daemon) => daemon.goto(turnGoto(plan)),
      });
    },
  };
}
