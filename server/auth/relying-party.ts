/**
 * The WebAuthn relying party of a request ("RP ID and origin come from ROBOT_RP_ID /
 * ROBOT_ORIGIN or the request host"). The browser binds every passkey to the RP ID and stamps
 * the page origin into each response, so both must be what the browser sees.
 */
import { badRequest } from '../errors.ts';

export interface RelyingPartyInput {
  /** ROBOT_RP_ID. */
  rpId: string | undefined;
  /** ROBOT_ORIGIN (already normalised by config). */
  origin: string | undefined;
  /** The Host header. */
  host: string | undefined;
  /** Whether the request arrived over TLS. */
  secure: boolean;
}

/**
 * The origin is ROBOT_ORIGIN, else the scheme and Host of the request; the RP ID is ROBOT_RP_ID,
 * else the host name of that origin (without port or IPv6 brackets). Throws BAD_REQUEST when
 * neither is configured and the Host header is missing or malformed.
 */
export function resolveRelyingParty(input: RelyingPartyInput): { rpId: string; origin: string } {
  const origin = input.origin ?? originFromHost(input.host, input.secure);
  const rpId = input.rpId ?? new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1');
  return { rpId, origin };
}

function originFromHost(host: string | undefined, secure: boolean): string {
  if (host === undefined || host === '' || /[/?#@\s\\]/.test(host))
    throw badRequest('missing or malformed Host header');
  try {
    return new URL(`${secure ? 'https' : 'http'}://${host}`).origin;
  } catch {
    throw badRequest('missing or malformed Host header');
  }
}
