/**
 * The owner-session side of the platform: enrol a device with a
 * session or command-line token, list devices, send to the relay and read replies. Session
 * routes take `Authorization: Bearer <CLI_TOKEN>` (docs/platform.md, "Authentication").
 */
import { CADENCE, LIMITS, PATHS } from './limits.ts';
import type { PlatformHttp } from './platform-http.ts';
import { classifyRelaySend, tooBigLocally, type RelaySendResult } from './relay-send.ts';
import type { Outcome, PlatformFailure } from './types.ts';

/** A device list entry (docs/platform.md, "Devices"). */
export interface DeviceEntry {
  id: string;
  name: string;
  kind: string;
  platform: string | null;
  online: boolean;
  lastSeen: string | null;
  capabilities: string[];
}

/** Body of POST /api/devices for a pull device. */
export interface CreateDeviceInput {
  name: string;
  platform?: string;
  capabilities?: string[];
}

/** Body of POST /api/devices for an endpoint device: the platform dials `url` with `secret` as bearer. */
export interface CreateEndpointInput {
  name: string;
  /** https on a public host name; the platform keeps only its origin (docs/platform.md, "Devices"). */
  url: string;
  /** The bearer the platform sends to the device, at most 4096 characters. */
  secret: string;
}

/** A reply or deposit read back by inReplyTo. */
export interface RelayReply {
  id: string;
  payload: string;
}

/** The owner's client. */
export interface SessionClient {
  listDevices(): Promise<Outcome<DeviceEntry[]>>;
  createDevice(input: CreateDeviceInput): Promise<Outcome<{ deviceId: string; token: string }>>;
  /** Creates an endpoint device (no token: the platform dials it, docs/platform.md, "Devices"). */
  createEndpointDevice(input: CreateEndpointInput): Promise<Outcome<{ deviceId: string }>>;
  relaySend(toDevice: string, envelope: Record<string, unknown>): Promise<RelaySendResult>;
  relayReply(inReplyTo: string): Promise<Outcome<RelayReply | null>>;
  /**
   * One agent turn on an endpoint device (POST /api/devices/endpoint/chat, LR, at most 90 s):
   * `{ok, result}`, or `{ok: false, error}` plus the flag that says why (unreachable, timeout or
   * unauthorized), passed on as the platform gave it.
   */
  endpointChat(deviceId: string, prompt: string): Promise<Outcome<Record<string, unknown>>>;
}

const malformed = (route: string): { ok: false; failure: PlatformFailure } => ({
  ok: false,
  failure: {
    kind: 'bad_response',
    message: `platform answered ${route} without the documented fields`,
    retryable: true,
  },
});

/**
 * The capability list of a device entry. The contract gives no type; the platform stores it as
 * a JSON string and lists it as that string, so both an array and its JSON text are read.
 */
function capabilitiesOf(raw: unknown): string[] {
  let list = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
}

/** `last_seen` as an ISO time: the platform lists epoch seconds; a string is kept as given. */
function lastSeenOf(raw: unknown): string | null {
  if (typeof raw === 'string') return raw;
  if (typeof raw !== 'number') return null;
  // A time past what a Date holds (±8.64e15 ms) has no ISO form: toISOString would throw.
  const at = new Date(raw * 1000);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

function entryOf(row: unknown): DeviceEntry | null {
  // A row that is not an object (null, a number) is skipped like one without an id.
  if (typeof row !== 'object' || row === null) return null;
  const raw = row as Record<string, unknown>;
  if (typeof raw.id !== 'string' || typeof raw.name !== 'string') return null;
  return {
    id: raw.id,
    name: raw.name,
    kind: typeof raw.kind === 'string' ? raw.kind : 'daemon',
    // The platform lists "" for a device enrolled without one.
    platform: typeof raw.platform === 'string' && raw.platform !== '' ? raw.platform : null,
    online: raw.online === true,
    lastSeen: lastSeenOf(raw.last_seen),
    capabilities: capabilitiesOf(raw.capabilities),
  };
}

/** Checks a create-device body against the enrolment limits (docs/platform.md, "Devices"). */
export function checkCreateDevice(input: CreateDeviceInput): PlatformFailure | null {
  const bad = (message: string): PlatformFailure => ({ kind: 'bad_request', message, retryable: false });
  if (input.name.trim() === '' || input.name.length > LIMITS.deviceNameChars)
    return bad(`device name must be 1–${LIMITS.deviceNameChars} characters`);
  if ((input.platform?.length ?? 0) > LIMITS.platformChars)
    return bad(`platform must be at most ${LIMITS.platformChars} characters`);
  const caps = input.capabilities ?? [];
  if (caps.length > LIMITS.capabilities || caps.some((c) => c.length === 0 || c.length > LIMITS.capabilityChars)) {
    return bad(`at most ${LIMITS.capabilities} capabilities of 1–${LIMITS.capabilityChars} characters`);
  }
  return null;
}

/**
 * Checks an endpoint device against the platform's rules (docs/platform.md, "Devices"): https on a public
 * host name (no IP literal, localhost, `.local`, `.internal` or dotless host), a secret of
 * 1–4096 characters.
 */
export function checkCreateEndpoint(input: CreateEndpointInput): PlatformFailure | null {
  const bad = (message: string): PlatformFailure => ({ kind: 'bad_request', message, retryable: false });
  const named = checkCreateDevice({ name: input.name });
  if (named) return named;
  let host = '';
  try {
    const url = new URL(input.url);
    if (url.protocol !== 'https:') return bad('an endpoint URL must be https');
    host = url.hostname;
  } catch {
    return bad('the endpoint URL is not a URL');
  }
  const local = /^[\d.]+$/.test(host) || host.includes(':') || host === 'localhost' || !host.includes('.');
  if (local || /\.(local|internal)$/.test(host))
    return bad('the platform dials endpoint devices on a public host name (not an IP, localhost, .local or .internal)');
  if (input.secret.length === 0 || input.secret.length > LIMITS.endpointSecretChars)
    return bad(`the endpoint secret must be 1–${LIMITS.endpointSecretChars} characters`);
  return null;
}

/** Creates the session client over an HTTP client bound to the platform origin. */
export function createSessionClient(http: PlatformHttp, bearer: string): SessionClient {
  return {
    async listDevices() {
      const out = await http.send({ method: 'GET', path: PATHS.devices, bearer });
      if (!out.ok) return out;
      const rows = Array.isArray(out.value.body.devices) ? (out.value.body.devices as unknown[]) : null;
      if (!rows) return malformed('GET /api/devices');
      return { ok: true, value: rows.flatMap((r) => entryOf(r) ?? []) };
    },
    async createDevice(input) {
      const bad = checkCreateDevice(input);
      if (bad) return { ok: false, failure: bad };
      // kind daemon: the robot is a pull device that polls the relay (docs/platform.md, "Devices").
      const out = await http.send({ method: 'POST', path: PATHS.devices, bearer, body: { ...input, kind: 'daemon' } });
      if (!out.ok) return out;
      const { device_id: deviceId, device_token: token } = out.value.body;
      return typeof deviceId === 'string' && typeof token === 'string'
        ? { ok: true, value: { deviceId, token } }
        : malformed('POST /api/devices');
    },
    async createEndpointDevice(input) {
      const bad = checkCreateEndpoint(input);
      if (bad) return { ok: false, failure: bad };
      const body = { name: input.name, kind: 'endpoint', url: input.url, secret: input.secret };
      const out = await http.send({ method: 'POST', path: PATHS.devices, bearer, body });
      if (!out.ok) return out;
      const deviceId = out.value.body.device_id;
      return typeof deviceId === 'string' ? { ok: true, value: { deviceId } } : malformed('POST /api/devices');
    },
    async relaySend(toDevice, envelope) {
      const tooBig = tooBigLocally(envelope);
      if (tooBig) return tooBig;
      // The payload travels as JSON inside a string (docs/platform.md, "Devices").
      return classifyRelaySend(
        await http.send({
          method: 'POST',
          path: PATHS.relay,
          bearer,
          body: { toDevice, payload: JSON.stringify(envelope) },
        }),
      );
    },
    async endpointChat(deviceId, prompt) {
      const out = await http.send({
        method: 'POST',
        path: PATHS.endpointChat,
        bearer,
        body: { deviceId, prompt },
        timeoutMs: CADENCE.endpointChatMs,
      });
      if (!out.ok) return out;
      return typeof out.value.body.ok === 'boolean' ? { ok: true, value: out.value.body } : malformed('endpoint chat');
    },
    async relayReply(inReplyTo) {
      const out = await http.send({
        method: 'GET',
        path: `${PATHS.relay}?inReplyTo=${encodeURIComponent(inReplyTo)}`,
        bearer,
      });
      if (!out.ok) return out;
      const reply = out.value.body.reply as Record<string, unknown> | null | undefined;
      if (!reply) return { ok: true, value: null };
      const payload = typeof reply.payload === 'string' ? reply.payload : JSON.stringify(reply.payload ?? null);
      return { ok: true, value: { id: String(reply.id ?? ''), payload } };
    },
  };
}
