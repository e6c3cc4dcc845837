/**
 * The robot app lock (daemon 1.13, `GET /api/daemon/robot-app-lock-status`): while a daemon app
 * (`local_app`) or a remote WebRTC session (`remote_session`) holds the robot, the cockpit's manual
 * motion answers 409 ROBOT_APP_LOCKED naming the holder, instead of fighting it for the motors.
 * STOP never asks (emergency-stop.ts does not go through here). A daemon that does not list the
 * route (older than the lock), or refuses the read, is treated as free. A daemon that is down or
 * silent fails the motion at once with that error, rather than a second timeout on the move.
 */
import type { Capabilities } from '../daemon/capabilities.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { AppLockStatus } from '../daemon/wire.ts';
import { AppError, isAppError } from '../errors.ts';

export const APP_LOCK_ROUTE = '/api/daemon/robot-app-lock-status';

export interface AppLockGuard {
  /** Reads the lock and throws 409 ROBOT_APP_LOCKED unless it is free. */
  assertFree(): Promise<void>;
  /** The last status read, null before the first read. */
  last(): AppLockStatus | null;
}

export function createAppLockGuard(deps: {
  daemon: Pick<DaemonClient, 'appLockStatus'>;
  capabilities: () => Capabilities;
}): AppLockGuard {
  let last: AppLockStatus | null = null;
  return {
    last: () => last,
    async assertFree() {
      const caps = deps.capabilities();
      if (caps.known && !caps.has('GET', APP_LOCK_ROUTE)) return;
      try {
        last = await deps.daemon.appLockStatus();
      } catch (err) {
        if (isAppError(err) && err.kind === 'unavailable') throw err;
        return;
      }
      if (last.state === 'free') return;
      throw lockedError(last);
    },
  };
}

export function lockedError(status: AppLockStatus): AppError {
  const who =
    status.state === 'local_app'
      ? `the app "${status.holder_name ?? 'unknown'}" running on the robot`
      : `a remote session${status.holder_name && status.holder_name !== 'remote' ? ` (${status.holder_name})` : ''}`;
  return new AppError('ROBOT_APP_LOCKED', `the robot is in use by ${who}; stop it first (STOP still works)`, {}, {
    holder: { kind: status.state, name: status.holder_name },
  });
}
