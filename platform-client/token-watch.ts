/**
 * When the platform refuses the device token, the owner hears it at once instead of the loops
 * striking on in silence (the strike policy only decides when to halt). The platform answers
 * a rotated token, a removed device and an unknown id alike (docs/platform.md, "Devices"), so the
 * known rotation signature is a 401 on a device route plus the owner's own view: with a stored
 * owner session the console lists the owner's devices. This device still listed means its
 * token was rotated (POST /api/devices/adopt elsewhere: "the old token stops at once",
 * docs/platform.md, "Devices") and the console offers to adopt a new one in place; not listed
 * means it was removed. Either is certain, so the fast loops halt at once. Without a session
 * (or when the list fails) the notice says the token is refused and offers re-enrolment, and
 * the strike policy decides the halt as before.
 */
import type { PlatformNotice, TokenNotice } from '../server/contract/index.ts';
import type { DeviceEntry } from './session-client.ts';
import type { Outcome, PlatformLog } from './types.ts';

/** What the watch needs from the client. */
export interface TokenWatchDeps {
  deviceId: () => string | null;
  /** The owner's devices through the stored session, or null when there is no session. */
  listDevices: () => Promise<Outcome<DeviceEntry[]> | null>;
  now: () => number;
  /** Shows the notice on the dashboard and tells the owner (event, /ws, push, native). */
  setNotice: (notice: TokenNotice | null) => void;
  notify: (notification: PlatformNotice) => void | Promise<void>;
  /** Halts the fast loops now, with a reason the status shows. */
  halt: (reason: 'token_rotated' | 'device_removed', message: string) => void;
  log: PlatformLog;
}

export interface TokenWatch {
  /** A device route answered 401. */
  refused(): void;
  /** A device route succeeded: the notice is over. */
  accepted(): void;
  /** Resolves when a check started by refused() is over (tests). */
  settled(): Promise<void>;
}

const MESSAGES = {
  rotated:
    "The platform refused this robot's device token: it was replaced by a new one (rotated by the owner). Adopt a new token from the platform card.",
  removed: "The platform refused the device token: this robot was removed from the owner's devices. Enrol it again.",
  refused:
    "The platform refused this robot's device token. It may have been rotated or the robot removed; enrol again, or store the owner's session token to find out.",
} as const;

const TITLES = {
  rotated: 'Platform token rotated',
  removed: 'Robot removed from the platform',
  refused: 'Platform token refused',
} as const;

/** Decides what the owner's own device list says. */
async function classify(deps: TokenWatchDeps): Promise<TokenNotice['kind']> {
  const listed = await deps.listDevices();
  const self = deps.deviceId();
  if (!listed?.ok || !self) return 'refused';
  return listed.value.some((d) => d.id === self) ? 'rotated' : 'removed';
}

export function createTokenWatch(deps: TokenWatchDeps): TokenWatch {
  let raised = false;
  let checking: Promise<void> = Promise.resolve();
  return {
    refused() {
      if (raised) return;
      raised = true;
      checking = (async () => {
        const kind = await classify(deps);
        if (!raised) return; // a success came in while we asked
        const notice: TokenNotice = {
          kind,
          since: deps.now(),
          message: MESSAGES[kind],
          offer: kind === 'rotated' ? 'adopt' : 'enrol',
        };
        deps.log.warn('platform refused the device token', { kind });
        deps.setNotice(notice);
        if (kind === 'rotated') deps.halt('token_rotated', notice.message);
        if (kind === 'removed') deps.halt('device_removed', notice.message);
        try {
          await deps.notify({ title: TITLES[kind], body: notice.message, tag: 'platform-token', url: '/#platform' });
        } catch (error) {
          deps.log.warn('could not raise the token notice', { error: String(error) });
        }
      })();
    },
    accepted() {
      if (!raised) return;
      raised = false;
      deps.setNotice(null);
    },
    settled: () => checking,
  };
}
