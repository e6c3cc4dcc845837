/**
 * Device-authenticated calls: every body carries {deviceId, token} (docs/platform.md
 * "Authentication"; docs/platform.md, "Devices"), and every outcome is reported once so the strike
 * policy and the status see all routes alike ("any success clears the count").
 */
import type { DeviceIdentity } from './identity.ts';
import type { PlatformAnswer, PlatformHttp, PlatformRequest } from './platform-http.ts';
import type { Outcome, PlatformFailure } from './types.ts';

/** The device routes' transport. */
export interface DeviceApi {
  /** Sends `fields` plus the device credentials; `method` and `path` as the spec lists them. */
  call(
    method: PlatformRequest['method'],
    path: string,
    fields: Record<string, unknown>,
    /** A bound of its own (media uploads); otherwise the transport's 15 s. */
    timeoutMs?: number,
  ): Promise<Outcome<PlatformAnswer>>;
  /** The enrolled device id, or null. Never the token. */
  deviceId(): string | null;
}

/** Dependencies of the device transport. */
export interface DeviceApiDeps {
  http: PlatformHttp;
  identity: () => DeviceIdentity | null;
  /** Called after every device request with its path and outcome. */
  onOutcome: (path: string, outcome: Outcome<PlatformAnswer>) => void;
}

/** The failure returned when a call is attempted without an identity. */
export const NOT_ENROLLED: PlatformFailure = Object.freeze({
  kind: 'bad_request',
  message: 'this robot is not enrolled on the platform',
  retryable: false,
});

/** The failure returned when the identity changed while a call was out (client-core.ts, adopt). */
export const SUPERSEDED: PlatformFailure = Object.freeze({
  kind: 'bad_request',
  message: 'the robot was enrolled anew while this request was out; its answer was dropped',
  retryable: false,
});

function sameIdentity(now: DeviceIdentity | null, then: DeviceIdentity): boolean {
  return now?.platformUrl === then.platformUrl && now.deviceId === then.deviceId && now.token === then.token;
}

/** Creates the device transport. */
export function createDeviceApi(deps: DeviceApiDeps): DeviceApi {
  return {
    async call(method, path, fields, timeoutMs) {
      const identity = deps.identity();
      if (!identity) return { ok: false, failure: NOT_ENROLLED };
      // Credentials go last so no field can override them.
      const body = { ...fields, deviceId: identity.deviceId, token: identity.token };
      const outcome = await deps.http.send({ method, path, body, ...(timeoutMs ? { timeoutMs } : {}) });
      // An answer to the previous identity (a heartbeat still out when the robot was enrolled
      // elsewhere) must count neither for the new one's status nor for its strikes.
      if (!sameIdentity(deps.identity(), identity)) return { ok: false, failure: SUPERSEDED };
      deps.onOutcome(path, outcome);
      return outcome;
    },
    deviceId: () => deps.identity()?.deviceId ?? null,
  };
}
