/**
 * Who may drive, and how. Every frame drives for its own duration only; a
 * stop, or the close of the socket that sent the running frame, stops the base at once. The
 * thinker drive gate: the autonomous persona (a service token with subject "thinker", or the
 * agent's drive tool) drives only while the operator has opened the gate, and operator frames
 * always win: they replace a thinker frame at once, and thinker frames are refused while the
 * operator drives and for OPERATOR_HOLD_MS after. Closing the gate stops a thinker at once.
 */
import { AppError } from '../../errors.ts';
import type { Log } from '../../log.ts';
import type { DriveFrame } from './frame-input.ts';
import type { DriveBackend } from './types.ts';

export type Driver = 'operator' | 'thinker';

export interface DriveAuthor {
  driver: Driver;
  /** Who sent it: a socket's id, or "http:<client>"; closing that socket stops its frame. */
  owner: string;
}

export interface ActiveFrame {
  driver: Driver;
  owner: string;
  linear: number;
  angular: number;
  /** Epoch ms the frame ends. */
  until: number;
}

export interface FrameOutcome {
  ok: true;
  driver: Driver;
  applied: { linear: number; angular: number; duration: number };
  clamped: boolean;
  /** The speed preset's share of top speed the frame was scaled by. */
  scale: number;
}

export interface GateState {
  open: boolean;
  /** Epoch ms of the last change; null while it has never been opened. */
  changedAt: number | null;
}

export interface DriveController {
  frame(frame: DriveFrame, by: DriveAuthor): FrameOutcome;
  stop(by: DriveAuthor): void;
  /** The owner went away (socket closed): its running frame stops now. */
  release(owner: string): void;
  gate(): GateState;
  setGate(open: boolean, by: Driver): GateState;
  active(): ActiveFrame | null;
}

/** Thinker frames wait this long after the operator's last frame ends. */
export const OPERATOR_HOLD_MS = 1500;

export function createDriveController(deps: {
  backend: Pick<DriveBackend, 'drive' | 'stop'>;
  /** The speed preset's share of top speed. */
  scale: () => number;
  log: Log;
  now?: () => number;
  operatorHoldMs?: number;
}): DriveController {
  const now = deps.now ?? Date.now;
  const holdMs = deps.operatorHoldMs ?? OPERATOR_HOLD_MS;
  let current: ActiveFrame | null = null;
  let operatorQuietAt = 0;
  let gate: GateState = { open: false, changedAt: null };

  const running = (): ActiveFrame | null => (current && current.until > now() ? current : null);
  const halt = () => {
    deps.backend.stop();
    current = null;
  };

  return {
    frame(frame, by) {
      const t = now();
      if (by.driver === 'thinker') {
        if (!gate.open)
          throw new AppError(
            'AUTH_FORBIDDEN',
            'the drive gate is closed: the operator has not allowed autonomous driving',
          );
        if (running()?.driver === 'operator' || t < operatorQuietAt)
          throw new AppError('CONFLICT', 'the operator is driving; autonomous frames wait until the operator lets go');
      }
      const scale = deps.scale();
      const until = t + frame.duration * 1000;
      deps.backend.drive({ linear: frame.linear * scale, angular: frame.angular * scale }, until);
      current = { driver: by.driver, owner: by.owner, linear: frame.linear, angular: frame.angular, until };
      if (by.driver === 'operator') operatorQuietAt = until + holdMs;
      return {
        ok: true,
        driver: by.driver,
        applied: { linear: frame.linear, angular: frame.angular, duration: frame.duration },
        clamped: frame.clamped,
        scale,
      };
    },
    stop(by) {
      halt();
      if (by.driver === 'operator') operatorQuietAt = now() + holdMs;
    },
    release(owner) {
      if (running()?.owner === owner) halt();
    },
    gate: () => ({ ...gate }),
    setGate(open, by) {
      if (open && by === 'thinker') throw new AppError('AUTH_FORBIDDEN', 'only the operator opens the drive gate');
      if (gate.open !== open) {
        gate = { open, changedAt: now() };
        deps.log.info(open ? 'drive gate opened' : 'drive gate closed');
      }
      if (!open && running()?.driver === 'thinker') halt();
      return { ...gate };
    },
    active: running,
  };
}
