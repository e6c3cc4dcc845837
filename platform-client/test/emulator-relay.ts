/**
 * The relay mailbox of the emulator (docs/platform.md, "Devices"): JSON-in-a-string payloads of at
 * most 8192 bytes, at-most-once claims, 1 h life for undelivered rows, 24 h for the rest, and
 * a device_result event for a reply later than the 45 s use_device budget.
 */
import { randomUUID } from 'node:crypto';
import { appendEvent, type EmuState } from './emulator-state.ts';

/** One relay row (docs/platform.md, "Relay mailbox"). */
export interface RelayRow {
  id: string;
  user_id: string;
  to_device: string;
  in_reply_to: string | null;
  payload: string;
  created_at: number;
  delivered: 0 | 1;
}

/** The mailbox. */
export interface EmuRelay {
  rows: RelayRow[];
}

const UNDELIVERED_LIFE_MS = 3_600_000;
const KEPT_MS = 86_400_000;
const WAIT_BUDGET_MS = 45_000;
const PAYLOAD_LIMIT = 8192;

/**
 * Normalises a payload to its string form: an object is stringified as the proxy does, then it
 * must parse as JSON and fit the limit. docs/platform.md, "Limits" says 8192 bytes, docs/platform.md, "Devices" 8192 characters; the emulator accepts both readings, so it refuses only what is over 8192
 * characters (and therefore over 8192 bytes too). Null when it does not fit.
 */
export function normalisePayload(payload: unknown): string | null {
  if (payload === undefined || payload === null) return null;
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  if (Array.from(text).length > PAYLOAD_LIMIT) return null;
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  return text;
}

/** Drops dead rows; expired undelivered invoke envelopes are reported as device_missed. */
export function sweep(state: EmuState, relay: EmuRelay): void {
  const now = state.now();
  relay.rows = relay.rows.filter((row) => {
    if (row.delivered === 0 && row.in_reply_to === null && now - row.created_at > UNDELIVERED_LIFE_MS) {
      if (/"type"\s*:\s*"invoke"/.test(row.payload)) appendEvent(state, row.user_id, 'device_missed', { id: row.id });
      return false;
    }
    return now - row.created_at <= KEPT_MS;
  });
}

/** Queues an envelope for a device of the user. */
export function send(state: EmuState, relay: EmuRelay, userId: string, toDevice: string, payload: string): RelayRow {
  const row: RelayRow = {
    id: randomUUID(),
    user_id: userId,
    to_device: toDevice,
    in_reply_to: null,
    payload,
    created_at: state.now(),
    delivered: 0,
  };
  relay.rows.push(row);
  return row;
}

/** Claims up to `max` undelivered envelopes of a device; each row is won by one poll only. */
export function claim(state: EmuState, relay: EmuRelay, deviceId: string, max: number): RelayRow[] {
  sweep(state, relay);
  const won: RelayRow[] = [];
  for (const row of relay.rows) {
    if (won.length >= max) break;
    // The compare-and-swap on delivered = 0 (docs/platform.md, "Devices"): a claimed row is never handed out again.
    if (row.to_device !== deviceId || row.in_reply_to !== null || row.delivered !== 0) continue;
    row.delivered = 1;
    won.push(row);
  }
  return won;
}

/** Stores a device's reply; null when the envelope is not one of this owner's. */
export function reply(
  state: EmuState,
  relay: EmuRelay,
  userId: string,
  deviceId: string,
  inReplyTo: string,
  payload: string,
): RelayRow | null {
  const request = relay.rows.find((r) => r.id === inReplyTo && r.user_id === userId && r.in_reply_to === null);
  if (!request) return null;
  const row: RelayRow = {
    id: randomUUID(),
    user_id: userId,
    to_device: deviceId,
    in_reply_to: inReplyTo,
    payload,
    created_at: state.now(),
    delivered: 0,
  };
  relay.rows.push(row);
  if (state.now() - request.created_at > WAIT_BUDGET_MS)
    appendEvent(state, userId, 'device_result', { envelope: inReplyTo });
  return row;
}

/** Stores a deposit under a ticket (task results), redeemable like a reply. */
export function deposit(
  state: EmuState,
  relay: EmuRelay,
  userId: string,
  deviceId: string,
  ticket: string,
  payload: string,
): void {
  relay.rows = relay.rows.filter((r) => !(r.user_id === userId && r.in_reply_to === ticket));
  relay.rows.push({
    id: randomUUID(),
    user_id: userId,
    to_device: deviceId,
    in_reply_to: ticket,
    payload,
    created_at: state.now(),
    delivered: 0,
  });
}

/** The reply (or deposit) to an envelope id or ticket of the user, or null. */
export function findReply(state: EmuState, relay: EmuRelay, userId: string, inReplyTo: string): RelayRow | null {
  sweep(state, relay);
  return relay.rows.find((r) => r.user_id === userId && r.in_reply_to === inReplyTo) ?? null;
}
