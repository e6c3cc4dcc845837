/**
 * The heartbeat: first beat at start, then every 30 s, which keeps the
 * device present for 60 s at a time (docs/platform.md, "Devices"). Each beat re-reads the capability
 * list (only verbs actually implemented), announces the cockpit's LAN URL when it is a private
 * address, and asks for the unread count.
 */
import { backoffDelay } from './backoff.ts';
import type { DeviceApi } from './device-api.ts';
import { CADENCE, LIMITS, PATHS } from './limits.ts';
import type { LoopTick } from './loop.ts';
import type { Outcome } from './types.ts';
import { privateLanOrigin } from './url-policy.ts';

/** Dependencies of the heartbeat. */
export interface HeartbeatDeps {
  api: DeviceApi;
  capabilities: () => readonly string[];
  lanUrl: () => string | null;
  /** Whether the strike policy has halted the fast loops (then beat every 5 minutes). */
  halted: () => boolean;
  /** Every beat's outcome; `unread` only when the platform computed it. */
  onBeat: (outcome: Outcome<{ unread: number | null }>) => void;
  periodMs?: number;
}

/**
 * The capability list as the worker stores it: at most 32 distinct entries of 1–32 characters
 * (docs/platform.md, "Devices"). Longer names are dropped rather than cut, since a cut name would
 * advertise a verb that does not exist.
 */
export function capabilityList(raw: readonly string[]): string[] {
  const valid = raw.filter((c) => typeof c === 'string' && c.length > 0 && c.length <= LIMITS.capabilityChars);
  return [...new Set(valid)].slice(0, LIMITS.capabilities);
}

/** The heartbeat body (docs/platform.md, "Heartbeat"), without the credentials. */
export function heartbeatBody(capabilities: readonly string[], lanUrl: string | null): Record<string, unknown> {
  const body: Record<string, unknown> = { capabilities: capabilityList(capabilities), wantUnread: '1' };
  // The worker drops a non-private lanUrl silently (docs/platform.md, "Devices"), so only a private one is sent.
  const lan = privateLanOrigin(lanUrl);
  if (lan) body.lanUrl = lan;
  return body;
}

/** The owner's unread count from a heartbeat answer: a count, or null when it is left out or is not one. */
export function unreadOf(body: Record<string, unknown>): number | null {
  const { unread } = body;
  return typeof unread === 'number' && Number.isSafeInteger(unread) && unread >= 0 ? unread : null;
}

/** Creates the heartbeat tick. */
export function createHeartbeatTick(deps: HeartbeatDeps): LoopTick {
  const periodMs = deps.periodMs ?? CADENCE.heartbeatMs;
  let failures = 0;
  return async () => {
    // wantUnread travels as the string "1", as the firmware sends it (docs/platform.md, "Devices").
    const out = await deps.api.call('POST', PATHS.heartbeat, heartbeatBody(deps.capabilities(), deps.lanUrl()));
    if (out.ok) {
      failures = 0;
      deps.onBeat({ ok: true, value: { unread: unreadOf(out.value.body) } });
    } else {
      if (out.failure.retryable) failures += 1;
      deps.onBeat(out);
    }
    if (deps.halted()) return CADENCE.haltedHeartbeatMs;
    return backoffDelay(periodMs, failures);
  };
}
