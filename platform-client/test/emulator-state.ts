/**
 * State of the platform emulator: users, sessions and the device registry (docs/platform.md
 * "Devices", docs/platform.md, "Devices"–docs/platform.md, "Devices"). Device auth matches the worker: the pair
 * (id, sha256(token), not revoked), and every miss gives the same 401 so ids cannot be probed.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A user of the emulated platform. */
export interface EmuUser {
  id: string;
  login: string;
  /** null: the worker did not compute it, and the proxy leaves `unread` out (docs/platform.md, "Devices"). */
  unread: number | null;
}

/** A registered device row. */
export interface EmuDevice {
  id: string;
  userId: string;
  name: string;
  kind: string;
  platform: string | null;
  capabilities: string[];
  tokenHash: string | null;
  lanUrl: string | null;
  url: string | null;
  lastSeen: number | null;
  revoked: boolean;
}

/** A stored event of the owner's ring (at most 200 per user, oldest pruned). */
export interface EmuEvent {
  id: number;
  userId: string;
  kind: string;
  detail?: unknown;
  at: number;
}

/** The emulator's registry and event ring. */
export interface EmuState {
  now: () => number;
  users: Map<string, EmuUser>;
  sessions: Map<string, string>;
  devices: Map<string, EmuDevice>;
  events: EmuEvent[];
}

/** Ring size per user (docs/platform.md, "Limits"). */
export const EVENT_RING = 200;
/** Presence window after a heartbeat (docs/platform.md, "Limits"). */
export const PRESENCE_MS = 60_000;

/** Creates empty emulator state on the given clock. */
export function createEmuState(now: () => number): EmuState {
  return { now, users: new Map(), sessions: new Map(), devices: new Map(), events: [] };
}

/** sha256 hex of a token: the worker stores only this (docs/platform.md, "Devices"). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A fresh device token: `tind_` plus 32 random bytes in base64url (docs/platform.md, "Devices"). */
export function mintToken(): string {
  return `tind_${randomBytes(32).toString('base64url')}`;
}

/** Adds a user with a session token (what a cookie or a command-line JWT resolves to). */
export function addUser(state: EmuState, login: string): { userId: string; session: string } {
  const userId = randomUUID();
  const session = `sess_${randomBytes(16).toString('hex')}`;
  state.users.set(userId, { id: userId, login, unread: 0 });
  state.sessions.set(session, userId);
  return { userId, session };
}

/** The device a {deviceId, token} pair authenticates, or null (revoked, unknown, wrong token). */
export function authDevice(state: EmuState, deviceId: unknown, token: unknown): EmuDevice | null {
  if (typeof deviceId !== 'string' || typeof token !== 'string') return null;
  const device = state.devices.get(deviceId);
  if (!device || device.revoked || device.tokenHash === null) return null;
  return device.tokenHash === hashToken(token) ? device : null;
}

/** True while the device beat within the last 60 s. */
export function isOnline(state: EmuState, device: EmuDevice): boolean {
  return device.lastSeen !== null && state.now() - device.lastSeen < PRESENCE_MS;
}

/** Appends to the owner's event ring, pruning the oldest beyond 200. */
export function appendEvent(state: EmuState, userId: string, kind: string, detail?: unknown): void {
  const last = state.events.at(-1)?.id ?? 0;
  state.events.push({ id: last + 1, userId, kind, detail, at: state.now() });
  const mine = state.events.filter((e) => e.userId === userId);
  if (mine.length > EVENT_RING) {
    const drop = new Set(mine.slice(0, mine.length - EVENT_RING));
    state.events = state.events.filter((e) => !drop.has(e));
  }
}

/** The list entry shape of GET /api/devices (docs/platform.md, "Devices"). */
export function listEntry(state: EmuState, device: EmuDevice): Record<string, unknown> {
  return {
    id: device.id,
    name: device.name,
    kind: device.kind,
    platform: device.platform,
    online: isOnline(state, device),
    last_seen: device.lastSeen === null ? null : new Date(device.lastSeen).toISOString(),
    capabilities: device.capabilities,
    lan_url: device.lanUrl,
    url: device.url,
  };
}
