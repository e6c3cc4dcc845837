/**
 * The status snapshot the dashboard and tray read, and its change feed.
 * It never holds the device token: the identity enters only as platform URL and device id.
 */
import type { FirmwareStatus, PlatformLastError, PlatformStatus } from '../server/contract/platform.ts';
import { CADENCE } from './limits.ts';
import type { FailureKind, PlatformLog } from './types.ts';

export type { FirmwareState, FirmwareStatus, HaltReason, PlatformStatus } from '../server/contract/platform.ts';

/** The last failure worth showing, with the client's own failure kinds. */
export interface LastError extends PlatformLastError {
  kind: FailureKind;
}

/** Holds the status fields and tells subscribers about changes. */
export interface StatusStore {
  /** The snapshot at `now`; `online` is derived from the last heartbeat. */
  snapshot(now: number): PlatformStatus;
  update(patch: Partial<Omit<PlatformStatus, 'online' | 'firmware'>>): void;
  updateFirmware(patch: Partial<FirmwareStatus>): void;
  subscribe(listener: (status: PlatformStatus) => void): () => void;
}

/** Creates the status store. `now` is read when notifying so listeners get a current snapshot. */
export function createStatusStore(now: () => number, channel: string, log: PlatformLog): StatusStore {
  let fields: Omit<PlatformStatus, 'online'> = {
    enrolled: false,
    identitySource: null,
    platformUrl: null,
    deviceId: null,
    connected: false,
    lastHeartbeatAt: null,
    envelopesHandled: 0,
    lastError: null,
    unread: null,
    halted: null,
    tokenNotice: null,
    ownerSession: null,
    firmware: {
      state: 'disabled',
      channel,
      currentVersion: null,
      available: null,
      staged: null,
      lastCheckedAt: null,
      message: null,
      installAllowed: false,
      installer: null,
    },
  };
  const listeners = new Set<(status: PlatformStatus) => void>();

  const snapshot = (at: number): PlatformStatus => {
    // A beat the clock now puts in the future (the wall clock was set back) proves nothing about the
    // last minute: counted fresh, it showed the robot online for as long as the clock went back.
    const last = fields.lastHeartbeatAt;
    const fresh = last !== null && at >= last && at - last < CADENCE.presenceMs;
    return {
      ...fields,
      firmware: { ...fields.firmware },
      online: fields.enrolled && fields.connected && fields.halted === null && fresh,
    };
  };

  const notify = (): void => {
    const current = snapshot(now());
    for (const listener of listeners) {
      try {
        listener(current);
      } catch (error) {
        log.error('platform status listener threw', { error: String(error) });
      }
    }
  };

  return {
    snapshot,
    update(patch) {
      fields = { ...fields, ...patch };
      notify();
    },
    updateFirmware(patch) {
      fields = { ...fields, firmware: { ...fields.firmware, ...patch } };
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
