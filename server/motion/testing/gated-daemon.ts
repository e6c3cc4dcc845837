/**
 * A daemon whose answers a motion test holds back or records: the stalled daemon of the stop's
 * race tests (server/motion/emergency-stop.test.ts, server/motion/stop-late-moves.test.ts).
 */
import { AppError } from '../../errors.ts';
import type { Rig } from './rig.ts';

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
