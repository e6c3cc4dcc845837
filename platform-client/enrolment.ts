/**
 * Enrolment: a pasted {platformUrl, deviceId, token} is checked, then proved
 * with one heartbeat before it is stored, so a typo is caught while the operator is still at
 * the form. A platform that cannot be reached does not block enrolment (the robot may be
 * offline right now); a refusal does. Owners with a session or command-line token can instead
 * have the device created for them through POST /api/devices.
 */
import type { PlatformEndpointEnrolInput } from '../server/contract/index.ts';
import { heartbeatBody, unreadOf } from './heartbeat.ts';
import { checkEnrolInput, type DeviceIdentity } from './identity.ts';
import { PATHS } from './limits.ts';
import { createPlatformHttp } from './platform-http.ts';
import { createSessionClient, type CreateDeviceInput } from './session-client.ts';
import type { FetchLike, Outcome } from './types.ts';
import { checkPlatformUrl } from './url-policy.ts';

/** Why an enrolment failed. The token is never part of the message. */
export interface EnrolFailure {
  kind: 'bad_request' | 'unauthorized' | 'unavailable' | 'storage' | 'conflict';
  message: string;
}

/** A checked identity and whether the platform confirmed it. */
export interface ProvedIdentity {
  identity: DeviceIdentity;
  /** False when the platform could not be reached; the loops will keep trying. */
  verified: boolean;
  unread: number | null;
}

/** Owner-side enrolment input: the session or command-line token is used once and not kept. */
export interface SessionEnrolInput extends CreateDeviceInput {
  platformUrl: string;
  sessionToken: string;
}

/** What proving needs from the client. */
export interface ProveDeps {
  fetch?: FetchLike;
  timeoutMs?: number;
  capabilities: readonly string[];
  lanUrl: string | null;
}

/** Checks pasted values and proves them with one heartbeat. */
export async function proveIdentity(input: unknown, deps: ProveDeps): Promise<Outcome<ProvedIdentity, EnrolFailure>> {
  const checked = checkEnrolInput(input);
  if (!checked.ok) return checked;
  const identity = checked.value;
  const http = createPlatformHttp({
    baseUrl: () => identity.platformUrl,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs,
  });
  const body = { ...heartbeatBody(deps.capabilities, deps.lanUrl), deviceId: identity.deviceId, token: identity.token };
  const out = await http.send({ method: 'POST', path: PATHS.heartbeat, body });
  if (out.ok) {
    return { ok: true, value: { identity, verified: true, unread: unreadOf(out.value.body) } };
  }
  if (out.failure.kind === 'unauthorized') {
    return {
      ok: false,
      failure: {
        kind: 'unauthorized',
        message: 'the platform refused this device id and token; check them or create a new device',
      },
    };
  }
  if (out.failure.retryable) return { ok: true, value: { identity, verified: false, unread: null } };
  return {
    ok: false,
    failure: { kind: 'bad_request', message: `the platform refused the enrolment: ${out.failure.message}` },
  };
}

/** Creates a device with the owner's session token and returns the pasted-style input for it. */
export async function createDeviceWithSession(
  input: SessionEnrolInput,
  fetch?: FetchLike,
  timeoutMs?: number,
): Promise<Outcome<DeviceIdentity, EnrolFailure>> {
  const url = checkPlatformUrl(input.platformUrl);
  if (!url.ok) return url;
  const http = createPlatformHttp({ baseUrl: () => url.value, fetch, timeoutMs });
  const { name, platform, capabilities } = input;
  const created = await createSessionClient(http, input.sessionToken).createDevice({
    name,
    ...(platform ? { platform } : {}),
    ...(capabilities ? { capabilities } : {}),
  });
  if (created.ok)
    return {
      ok: true,
      value: { platformUrl: url.value, deviceId: created.value.deviceId, token: created.value.token },
    };
  const { kind, message } = created.failure;
  if (kind === 'unauthorized')
    return { ok: false, failure: { kind, message: 'the platform refused the session token (login required)' } };
  return { ok: false, failure: { kind: kind === 'bad_request' ? 'bad_request' : 'unavailable', message } };
}

/**
 * Creates this robot as an endpoint device (docs/platform.md, "Devices": `{name, kind: endpoint,
 * url, secret}`). The platform then calls its chat, telemetry and snapshot routes with the secret;
 * the robot holds no device token for it, so nothing else changes on this side.
 */
export async function createEndpointWithSession(
  input: PlatformEndpointEnrolInput,
  fetch?: FetchLike,
  timeoutMs?: number,
): Promise<Outcome<{ platformUrl: string; deviceId: string }, EnrolFailure>> {
  const url = checkPlatformUrl(input.platformUrl);
  if (!url.ok) return url;
  const http = createPlatformHttp({ baseUrl: () => url.value, fetch, timeoutMs });
  const { name, secret } = input;
  const created = await createSessionClient(http, input.sessionToken).createEndpointDevice({
    name,
    url: input.url,
    secret,
  });
  if (created.ok) return { ok: true, value: { platformUrl: url.value, deviceId: created.value.deviceId } };
  const { kind, message } = created.failure;
  if (kind === 'unauthorized')
    return { ok: false, failure: { kind, message: 'the platform refused the session token (login required)' } };
  return { ok: false, failure: { kind: kind === 'bad_request' ? 'bad_request' : 'unavailable', message } };
}
