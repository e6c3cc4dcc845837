/**
 * The status snapshot the dashboard and tray read (issue 10, item 8), and its change feed.
 * It never holds the device token: the identity enters only as platform URL and device id.
 */
import { CADENCE } from './limits.ts';
import type { FailureKind, PlatformLog } from './types.ts';

/** Where the firmware pointer stands. */
export type FirmwareState =
  | 'disabled'
  | 'idle'
  | 'checking'
  | 'up_to_date'
  | 'downloading'
  | 'staged'
  | 'applying'
  | 'applied'
  | 'refused'
  | 'failed';

/** Firmware part of the status. */
export interface FirmwareStatus {
  state: FirmwareState;
  channel: string;
  currentVersion: string | null;
  /** Version the platform points at, when newer or forced. */
  available: string | null;
  /** Version verified and staged in the data dir, waiting for an idle robot and the operator. */
  staged: string | null;
  lastCheckedAt: number | null;
  message: string | null;
}

/** Why the fast loops are halted: the token was refused under the strike policy (§3). */
export interface HaltReason {
  reason: 'token_rejected';
  since: number;
  message: string;
}

/** The last failure worth showing. */
export interface LastError {
  kind: FailureKind;
  message: string;
  at: number;
}

/** The snapshot returned by status(). */
export interface PlatformStatus {
  enrolled: boolean;
  /** Where the identity came from: pasted and stored, or the host's environment. */
  identitySource: 'stored' | 'env' | null;
  platformUrl: string | null;
  deviceId: string | null;
  /** Loops are running (false after disconnect()). */
  connected: boolean;
  /** A heartbeat succeeded within the 60 s presence window and nothing halted. */
  online: boolean;
  lastHeartbeatAt: number | null;
  envelopesHandled: number;
  lastError: LastError | null;
  unread: number | null;
  halted: HaltReason | null;
  firmware: FirmwareStatus;
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
    firmware: {
      state: 'disabled',
      channel,
      currentVersion: null,
      available: null,
      staged: null,
      lastCheckedAt: null,
      message: null,
    },
  };
  const listeners = new Set<(status: PlatformStatus) => void>();

  const snapshot = (at: number): PlatformStatus => {
    const fresh = fields.lastHeartbeatAt !== null && at - fields.lastHeartbeatAt < CADENCE.presenceMs;
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
