/**
 * The platform card's console routes (platform-client/README.md, "Status"): the status view,
 * enrolment with pasted values, connect, disconnect, forget and the firmware channel. The device
 * token goes in once and never comes back: no answer carries it.
 */
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

export interface PlatformFirmware {
  state: string;
  channel: string;
  currentVersion: string | null;
  available: string | null;
  staged: string | null;
  lastCheckedAt: number | null;
  message: string | null;
}

/** Times are epoch milliseconds. `available: false` means no platform client is wired in. */
export interface PlatformStatus {
  available: boolean;
  enrolled: boolean;
  identitySource: 'stored' | 'env' | null;
  platformUrl: string | null;
  deviceId: string | null;
  connected: boolean;
  online: boolean;
  lastHeartbeatAt: number | null;
  envelopesHandled: number;
  lastError: { kind: string; message: string; at: number } | null;
  unread: number | null;
  halted: { reason: string; since: number; message: string } | null;
  firmware: PlatformFirmware | null;
}

export interface PlatformNotice {
  title: string;
  body: string;
  tag: string;
  url: string;
}

export interface EnrolInput {
  platformUrl: string;
  deviceId: string;
  token: string;
}

const str = (u: unknown): string | null => (typeof u === 'string' ? u : null);
const num = (u: unknown): number | null => (typeof u === 'number' && Number.isFinite(u) ? u : null);
const rec = (u: unknown): Record<string, unknown> | null =>
  typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>) : null;

function readFirmware(u: unknown): PlatformFirmware | null {
  const f = rec(u);
  if (!f || typeof f.state !== 'string') return null;
  return {
    state: f.state,
    channel: str(f.channel) ?? '',
    currentVersion: str(f.currentVersion),
    available: str(f.available),
    staged: str(f.staged),
    lastCheckedAt: num(f.lastCheckedAt),
    message: str(f.message),
  };
}

/** The status of GET /api/console/platform or a `platform` frame; null when it is none. */
export function readPlatformStatus(u: unknown): PlatformStatus | null {
  const s = rec(u);
  if (!s || typeof s.enrolled !== 'boolean') return null;
  const error = rec(s.lastError);
  const halted = rec(s.halted);
  return {
    // Frames are only sent by a wired client, and they do not repeat the flag.
    available: s.available !== false,
    enrolled: s.enrolled,
    identitySource: s.identitySource === 'stored' || s.identitySource === 'env' ? s.identitySource : null,
    platformUrl: str(s.platformUrl),
    deviceId: str(s.deviceId),
    connected: s.connected === true,
    online: s.online === true,
    lastHeartbeatAt: num(s.lastHeartbeatAt),
    envelopesHandled: num(s.envelopesHandled) ?? 0,
    lastError: error
      ? { kind: str(error.kind) ?? '', message: str(error.message) ?? '', at: num(error.at) ?? 0 }
      : null,
    unread: num(s.unread),
    halted: halted
      ? { reason: str(halted.reason) ?? '', since: num(halted.since) ?? 0, message: str(halted.message) ?? '' }
      : null,
    firmware: readFirmware(s.firmware),
  };
}

/** A `notify` frame; null when it has no title. */
export function readNotice(u: unknown): PlatformNotice | null {
  const n = rec(u);
  if (!n || typeof n.title !== 'string' || n.title === '') return null;
  return { title: n.title, body: str(n.body) ?? '', tag: str(n.tag) ?? '', url: str(n.url) ?? '' };
}

export interface PlatformApi {
  status(): Promise<ApiResult<PlatformStatus | null>>;
  enrol(input: EnrolInput): Promise<ApiResult<PlatformStatus | null>>;
  connect(): Promise<ApiResult<PlatformStatus | null>>;
  disconnect(): Promise<ApiResult<PlatformStatus | null>>;
  forget(): Promise<ApiResult<PlatformStatus | null>>;
  setChannel(channel: string): Promise<ApiResult<PlatformStatus | null>>;
}

/** `slow` serves enrolment, which waits for a proving heartbeat (bounded at 15 s by the client). */
export function createPlatformApi(http: HttpClient, slow: HttpClient = http): PlatformApi {
  const read = async (call: Promise<ApiResult<unknown>>): Promise<ApiResult<PlatformStatus | null>> => {
    const result = await call;
    return result.ok ? { ...result, data: readPlatformStatus(result.data) } : result;
  };
  return {
    status: () => read(http.request('/api/console/platform')),
    enrol: (input) => read(slow.request('/api/console/platform/enrol', { method: 'POST', body: input })),
    connect: () => read(http.request('/api/console/platform/connect', { method: 'POST' })),
    disconnect: () => read(http.request('/api/console/platform/disconnect', { method: 'POST' })),
    forget: () => read(http.request('/api/console/platform', { method: 'DELETE' })),
    setChannel: (channel) => read(http.request('/api/console/platform/firmware', { method: 'PUT', body: { channel } })),
  };
}
