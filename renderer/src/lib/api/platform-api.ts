/**
 * The platform card's console routes (platform-client/README.md, "Status"): the status view,
 * enrolment with pasted values or with the owner's session token, connect, disconnect, forget,
 * the firmware choices, the owner session and endpoint enrolment. Tokens go in once and never come back: no answer
 * carries them. The status types are the cockpit's own (server/contract/platform.ts); frames are
 * still read field by field, so a malformed one is dropped rather than trusted.
 */
import type {
  FirmwareState,
  FirmwareStatus,
  HaltReason,
  PlatformEndpointEnrolBody,
  PlatformEndpointEnrolled,
  PlatformEnrolInput,
  PlatformNotice,
  PlatformSessionEnrolInput,
  PlatformStatusView,
  PlatformUnavailable,
  TokenNotice,
} from '../../../../server/contract/index.ts';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';

/** What the card shows: the cockpit's status view, or that this cockpit has no platform client. */
export type ConsolePlatformStatus = PlatformStatusView | PlatformUnavailable;

/** At least one of them (the route refuses an empty body). */
export type FirmwareChoices =
  { channel: string; installAllowed?: boolean } | { channel?: string; installAllowed: boolean };

// A record, so the compiler insists on every FirmwareState of the contract and nothing else.
const FIRMWARE_STATES: Record<FirmwareState, true> = {
  disabled: true,
  idle: true,
  checking: true,
  up_to_date: true,
  downloading: true,
  staged: true,
  applying: true,
  applied: true,
  refused: true,
  unoffered: true,
  failed: true,
};

const str = (u: unknown): string | null => (typeof u === 'string' ? u : null);
const num = (u: unknown): number | null => (typeof u === 'number' && Number.isFinite(u) ? u : null);
const rec = (u: unknown): Record<string, unknown> | null =>
  typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>) : null;
const source = (u: unknown): 'stored' | 'env' | null => (u === 'stored' || u === 'env' ? u : null);

function haltReason(u: unknown): HaltReason['reason'] {
  return u === 'token_rotated' || u === 'device_removed' ? u : 'token_rejected';
}

/** The refused-token notice; null when absent or unreadable. */
function readTokenNotice(u: unknown): TokenNotice | null {
  const t = rec(u);
  if (!t || (t.kind !== 'rotated' && t.kind !== 'removed' && t.kind !== 'refused')) return null;
  return {
    kind: t.kind,
    since: num(t.since) ?? 0,
    message: str(t.message) ?? '',
    // Only an explicit adopt offer shows the one-click button; anything else offers enrolment.
    offer: t.offer === 'adopt' ? 'adopt' : 'enrol',
  };
}

function isFirmwareState(u: unknown): u is FirmwareState {
  return typeof u === 'string' && Object.hasOwn(FIRMWARE_STATES, u);
}

/** The firmware part; null when it is missing or names a state this dashboard does not know. */
function readFirmware(u: unknown): FirmwareStatus | null {
  const f = rec(u);
  if (!f || !isFirmwareState(f.state)) return null;
  return {
    state: f.state,
    channel: str(f.channel) ?? '',
    currentVersion: str(f.currentVersion),
    available: str(f.available),
    staged: str(f.staged),
    lastCheckedAt: num(f.lastCheckedAt),
    message: str(f.message),
    // Consent is only ever what the cockpit said it is: anything but `true` reads as not given.
    installAllowed: f.installAllowed === true,
    installer: str(f.installer),
  };
}

/**
 * The status of GET /api/console/platform or a `platform` frame; null when it is none (no
 * `enrolled` flag, or a wired client's status without a readable firmware part).
 */
export function readPlatformStatus(u: unknown): ConsolePlatformStatus | null {
  const s = rec(u);
  if (!s || typeof s.enrolled !== 'boolean') return null;
  // Frames are only sent by a wired client, and they do not repeat the flag.
  if (s.available === false) return { available: false, enrolled: false };
  const firmware = readFirmware(s.firmware);
  if (!firmware) return null;
  const error = rec(s.lastError);
  const halted = rec(s.halted);
  return {
    available: true,
    enrolled: s.enrolled,
    identitySource: source(s.identitySource),
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
    // An unknown reason reads as the strike policy's: the card explains it and shows the message.
    halted: halted
      ? { reason: haltReason(halted.reason), since: num(halted.since) ?? 0, message: str(halted.message) ?? '' }
      : null,
    tokenNotice: readTokenNotice(s.tokenNotice),
    ownerSession: source(s.ownerSession),
    firmware,
  };
}

/** A `notify` frame; null when it has no title. */
export function readNotice(u: unknown): PlatformNotice | null {
  const n = rec(u);
  if (!n || typeof n.title !== 'string' || n.title === '') return null;
  return { title: n.title, body: str(n.body) ?? '', tag: str(n.tag) ?? '', url: str(n.url) ?? '' };
}

/** The answer of enrol-endpoint; null when it is not one. */
export function readEndpointEnrolled(u: unknown): PlatformEndpointEnrolled | null {
  const e = rec(rec(u)?.endpoint);
  const platformUrl = str(e?.platformUrl);
  const deviceId = str(e?.deviceId);
  const url = str(e?.url);
  return platformUrl && deviceId && url ? { platformUrl, deviceId, url } : null;
}

type StatusResult = Promise<ApiResult<ConsolePlatformStatus | null>>;

export interface PlatformApi {
  status(): StatusResult;
  enrol(input: PlatformEnrolInput): StatusResult;
  enrolWithSession(input: PlatformSessionEnrolInput): StatusResult;
  connect(): StatusResult;
  disconnect(): StatusResult;
  forget(): StatusResult;
  setFirmware(choices: FirmwareChoices): StatusResult;
  /** Proved on the platform before it is stored; refused (400) when the platform refuses it. */
  setOwnerSession(token: string): StatusResult;
  forgetOwnerSession(): StatusResult;
  /** After a rotation: a new device token through the stored owner session. */
  adopt(): StatusResult;
  /** Creates this robot as an endpoint device; the cockpit supplies the bearer the platform presents. */
  enrolEndpoint(input: PlatformEndpointEnrolBody): Promise<ApiResult<PlatformEndpointEnrolled | null>>;
}

/**
 * `slow` serves what waits for the platform: both enrolments (a proving heartbeat, bounded at
 * 15 s by the client) and the owner session (proved by listing the owner's devices).
 */
export function createPlatformApi(http: HttpClient, slow: HttpClient = http): PlatformApi {
  const read = async (call: Promise<ApiResult<unknown>>): StatusResult => {
    const result = await call;
    return result.ok ? { ...result, data: readPlatformStatus(result.data) } : result;
  };
  const base = '/api/console/platform';
  return {
    status: () => read(http.request(base)),
    enrol: (input) => read(slow.request(`${base}/enrol`, { method: 'POST', body: input })),
    enrolWithSession: (input) => read(slow.request(`${base}/enrol-session`, { method: 'POST', body: input })),
    connect: () => read(http.request(`${base}/connect`, { method: 'POST' })),
    disconnect: () => read(http.request(`${base}/disconnect`, { method: 'POST' })),
    forget: () => read(http.request(base, { method: 'DELETE' })),
    setFirmware: (choices) => read(http.request(`${base}/firmware`, { method: 'PUT', body: choices })),
    setOwnerSession: (token) => read(slow.request(`${base}/owner-session`, { method: 'PUT', body: { token } })),
    forgetOwnerSession: () => read(http.request(`${base}/owner-session`, { method: 'DELETE' })),
    adopt: () => read(slow.request(`${base}/adopt`, { method: 'POST' })),
    async enrolEndpoint(input) {
      const result = await slow.request(`${base}/enrol-endpoint`, { method: 'POST', body: input });
      return result.ok ? { ...result, data: readEndpointEnrolled(result.data) } : result;
    },
  };
}
