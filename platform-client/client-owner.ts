/**
 * The owner's side of the client: keeping the owner's session token
 * for use_device, and enrolling with it. A pasted token is proved by listing the owner's
 * devices on the robot's own platform before it is stored, so a typo or an expired session is
 * caught at the form, not in the middle of an agent turn.
 */
import type { Core } from './client-core.ts';
import { enrolProved } from './client-core.ts';
import { createDeviceWithSession, type EnrolFailure, type SessionEnrolInput } from './enrolment.ts';
import { PATHS } from './limits.ts';
import { isSessionTokenShape } from './owner-session.ts';
import type { PlatformHttp } from './platform-http.ts';
import { createSessionClient } from './session-client.ts';
import type { PlatformStatus } from './status.ts';
import type { Outcome } from './types.ts';

type Refusal = { ok: false; failure: EnrolFailure };
const refuse = (kind: EnrolFailure['kind'], message: string): Refusal => ({ ok: false, failure: { kind, message } });

function reportOwnerSession(core: Core): PlatformStatus {
  core.status.update({ ownerSession: core.owner.sourceFor(core.current.identity?.platformUrl ?? null) });
  return core.status.snapshot(core.scheduler.now());
}

/** Proves the token on the enrolled platform, then stores it bound to that platform. */
export async function setOwnerSession(
  core: Core & { http: PlatformHttp },
  token: string,
): Promise<Outcome<PlatformStatus, EnrolFailure>> {
  const platformUrl = core.current.identity?.platformUrl;
  if (!platformUrl) return refuse('bad_request', 'enrol the robot first: the session token is for its platform');
  if (core.owner.sourceFor(platformUrl) === 'env')
    return refuse('bad_request', 'ROBOT_PLATFORM_SESSION_TOKEN decides the owner session on this robot');
  const trimmed = token.trim();
  if (!isSessionTokenShape(trimmed))
    return refuse('bad_request', 'a session token is 8–512 printable characters without spaces');
  const listed = await createSessionClient(core.http, trimmed).listDevices();
  if (!listed.ok) {
    if (listed.failure.kind === 'unauthorized')
      return refuse('bad_request', 'the platform refused this session token (signed out or expired)');
    return refuse('unavailable', `could not check the session token: ${listed.failure.message}`);
  }
  try {
    await core.owner.save(platformUrl, trimmed);
  } catch (error) {
    core.deps.log.error('could not store the owner session', { error: String(error) });
    return refuse('storage', 'the session token could not be stored');
  }
  core.deps.log.info('owner session stored for use_device', { platformUrl, devices: listed.value.length });
  return { ok: true, value: reportOwnerSession(core) };
}

/** Deletes the stored token; an environment token stays (the host decides it). */
export async function forgetOwnerSession(core: Core): Promise<Outcome<PlatformStatus, EnrolFailure>> {
  try {
    await core.owner.forget();
  } catch (error) {
    core.deps.log.error('could not delete the owner session', { error: String(error) });
    return refuse('storage', 'the session token could not be deleted');
  }
  return { ok: true, value: reportOwnerSession(core) };
}

/**
 * Creates the device with the owner's token, enrols it, and keeps the token when asked to. The
 * token is stored before the enrolment is adopted, so the first status the dashboards hear of
 * the enrolled robot already says whether use_device can reach the owner's other devices.
 */
export async function enrolWithSession(
  core: Core & { http: PlatformHttp },
  input: SessionEnrolInput & { keepSession?: boolean },
): Promise<Outcome<PlatformStatus, EnrolFailure>> {
  const { keepSession, ...create } = input;
  const created = await createDeviceWithSession(create, core.deps.fetch, core.deps.requestTimeoutMs);
  if (!created.ok) return created;
  if (keepSession) {
    // The platform accepted the token a moment ago (it created the device): no need to prove it again.
    try {
      await core.owner.save(created.value.platformUrl, input.sessionToken.trim());
    } catch (error) {
      core.deps.log.error('could not store the owner session', { error: String(error) });
      return refuse('storage', 'the device was created, but the session token could not be stored; enrol again');
    }
  }
  const enrolled = await enrolProved(core, created.value);
  if (!enrolled.ok && keepSession) await core.owner.forget().catch(() => undefined);
  return enrolled;
}

/** The token use_device may send: the one bound to the robot's current platform. */
export function ownerTokenNow(core: Core): string | null {
  return core.owner.tokenFor(core.current.identity?.platformUrl ?? null);
}

/**
 * Re-keys this device in place after its token was rotated elsewhere: POST /api/devices/adopt
 * {deviceId} with the owner's session answers a new token (docs/platform.md, "Devices", "States":
 * the old one stops at once), which is proved, stored and connected like a pasted enrolment.
 */
export async function adoptToken(core: Core & { http: PlatformHttp }): Promise<Outcome<PlatformStatus, EnrolFailure>> {
  const identity = core.current.identity;
  if (!identity) return refuse('bad_request', 'not enrolled on the platform: enrol first');
  if (core.status.snapshot(core.scheduler.now()).identitySource === 'env')
    return refuse('conflict', 'ROBOT_DEVICE_TOKEN decides the device token on this robot; change it on the host');
  const token = ownerTokenNow(core);
  if (!token)
    return refuse('bad_request', "store the owner's session token first: adopting a new device token needs it");
  const out = await core.http.send({
    method: 'POST',
    path: PATHS.adopt,
    bearer: token,
    body: { deviceId: identity.deviceId },
  });
  if (!out.ok) {
    if (out.failure.kind === 'unauthorized')
      return refuse('bad_request', 'the platform refused the owner session token (signed out or expired)');
    if (out.failure.kind === 'not_found')
      return refuse('bad_request', "this robot is no longer one of the owner's devices: enrol it again");
    return refuse('unavailable', `could not adopt a new token: ${out.failure.message}`);
  }
  const { device_id: deviceId, device_token: newToken } = out.value.body;
  if (deviceId !== identity.deviceId || typeof newToken !== 'string')
    return refuse('unavailable', 'the platform answered the adoption without a new token for this device');
  core.deps.log.info('adopted a new device token', { deviceId });
  return enrolProved(core, { platformUrl: identity.platformUrl, deviceId, token: newToken });
}
