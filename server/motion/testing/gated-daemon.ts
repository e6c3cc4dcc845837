/**
 * A daemon whose answers a motion test holds back or records: the stalled daemon of the stop's
 * race tests (server/motion/emergency-stop.test.ts, server/motion/stop-late-moves.test.ts).
 */
import { expect } from 'vitest';
import { AppError } from '../../errors.ts';
import type { RunningMove } from '../arbiter.ts';
import { until, type Rig } from './rig.ts';

/** A daemon answer the test holds back until it calls `release`. */
export function heldBack(): { gate: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

/** Notes every move the cockpit asks the daemon to stop, then stops it. */
export function recordStops(own: Rig, stops: string[]): void {
  const { stopMove } = own.daemon;
  own.daemon.stopMove = async (uuid) => {
    stops.push(uuid);
    await stopMove.call(own.daemon, uuid);
  };
}

/** A goto the stalled daemon did not answer in time (http-transport.ts): it may still carry it out. */
export const STALLED_GOTO = new AppError(
  'DAEMON_TIMEOUT',
  'daemon did not answer POST /api/move/goto within 2000 ms; it may still carry it out when it does',
);

/**
 * The stalled daemon: the cockpit gives up waiting for the next goto (STALLED_GOTO), and the
 * daemon carries it out once the test calls `release`; `played` is that goto's uuid. `restore`
 * puts the daemon's own goto back.
 */
export function stallNextGoto(own: Rig): { release: () => void; played: () => Promise<string>; restore: () => void } {
  const { goto } = own.daemon;
  const { gate, release } = heldBack();
  let late: Promise<string> | undefined;
  own.daemon.goto = (req) => {
    late = gate.then(() => goto.call(own.daemon, req));
    own.daemon.goto = goto;
    return Promise.reject(STALLED_GOTO);
  };
  return {
    release,
    played: async () => (await late) ?? '',
    restore: () => {
      own.daemon.goto = goto;
    },
  };
}

/**
 * An arbiter move whose start is on its way until `gate` opens. It resolves once the start is
 * waiting, with the move and the expectation that the stop refuses it (STOP_LATCHED).
 */
export async function startHeldMove(
  own: Rig,
  gate: Promise<void>,
): Promise<{ move: Promise<RunningMove>; refused: Promise<void> }> {
  let starting = false;
  const move = own.control.arbiter.run({
    label: 'a late start',
    maxSeconds: 5,
    start: async (d) => {
      starting = true;
      await gate;
      return d.goto({ head_pose: { yaw: 0.2 }, duration: 4 });
    },
  });
  const refused = expect(move).rejects.toMatchObject({ code: 'STOP_LATCHED' });
  await until(() => starting);
  return { move, refused };
}
