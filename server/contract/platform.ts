/**
 * The robot on the hosted agent platform (issue 10): the platform client's status snapshot, what
 * GET /api/console/platform answers and `{type: "platform"}` frames carry. One declaration for
 * the client, the cockpit and the dashboard. It never holds a token: the identity appears only
 * as platform URL and device id, the owner session only as where it comes from. Times are epoch
 * milliseconds.
 */

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

export interface FirmwareStatus {
  state: FirmwareState;
  channel: string;
  currentVersion: string | null;
  /** Version the platform points at, when newer or forced. */
  available: string | null;
  /** Version verified and staged in the data dir, waiting to be installed. */
  staged: string | null;
  lastCheckedAt: number | null;
  message: string | null;
  /** The operator lets a staged bundle be installed once the robot is idle (off by default). */
  installAllowed: boolean;
  /** How this console installs a bundle, e.g. `hook /usr/local/bin/x`; null when it cannot. */
  installer: string | null;
}

/** Why the fast loops are halted: the token was refused under the strike policy. */
export interface HaltReason {
  reason: 'token_rejected';
  since: number;
  message: string;
}

/** The last failure worth showing; `kind` is one of the client's failure kinds. */
export interface PlatformLastError {
  kind: string;
  message: string;
  at: number;
}

export interface PlatformStatus {
  enrolled: boolean;
  /** Where the identity came from: pasted and stored, or the host's environment. */
  identitySource: 'stored' | 'env' | null;
  platformUrl: string | null;
  deviceId: string | null;
  /** Loops are running (false after a disconnect). */
  connected: boolean;
  /** A heartbeat succeeded within the 60 s presence window and nothing halted. */
  online: boolean;
  lastHeartbeatAt: number | null;
  envelopesHandled: number;
  lastError: PlatformLastError | null;
  unread: number | null;
  halted: HaltReason | null;
  /** Where the owner's session token for use_device comes from; null when none is configured. */
  ownerSession: 'stored' | 'env' | null;
  firmware: FirmwareStatus;
}

/** The status as it leaves the cockpit; `available: false` means no platform client is wired in. */
export type PlatformStatusView = PlatformStatus & { available: true };
