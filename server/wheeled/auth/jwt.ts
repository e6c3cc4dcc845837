/**
 * The wheeled server's signed tokens (docs/contract.md, "Authentication"): HS256 JWTs with the
 * secret from jwt-secret.ts. jose signs them. Verification is synchronous because the access
 * gate and the WebSocket upgrade decide in one step (server/http/caller.ts), and jose only
 * verifies asynchronously; so the HMAC is checked here with node:crypto against the canonical
 * base64url form, and jose's decoders read the header and claims. Tests check both directions
 * against jose's own jwtVerify.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';

export const JWT_ISSUER = 'robot-cockpit';
export const JWT_AUDIENCE = 'robot-cockpit/server-b';
/** Clock difference tolerated for `iat` in the future (another host minted it). */
const FUTURE_SKEW_SECONDS = 60;

/** A passkey login's browser token: short-lived, tied to the server-side passkey session. */
export interface SessionClaims {
  typ: 'session';
  sub: string;
  /** The passkey session's non-secret key: ending the session ends the token. */
  sid: string;
  /** The passkey credential that signed in. */
  cid: string;
  /** When the passkey session ends (epoch seconds): sockets close then, refreshes stop. */
  sexp: number;
  jti: string;
  iat: number;
  exp: number;
}

/** A long-lived token for a script or a sibling robot, minted for a subject and a name. */
export interface ServiceClaims {
  typ: 'service';
  sub: string;
  name: string;
  jti: string;
  iat: number;
  exp: number;
}

export type TokenClaims = SessionClaims | ServiceClaims;

export async function signToken(secret: Uint8Array, claims: TokenClaims): Promise<string> {
  const { sub, jti, iat, exp, ...rest } = claims;
  return new SignJWT({ ...rest })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(sub)
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(secret);
}

/** The claims of a token this server signed and that is valid at `nowSeconds`; else undefined. */
export function verifyToken(secret: Uint8Array, token: string, nowSeconds: number): TokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 4096) return undefined;
  try {
    const header = decodeProtectedHeader(token);
    // Only HS256, and no critical extensions we would have to understand (RFC 7515 §4.1.11).
    if (header.alg !== 'HS256' || header.crit !== undefined) return undefined;
    const expected = Buffer.from(
      createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest().toString('base64url'),
    );
    const given = Buffer.from(parts[2] as string);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return checkClaims(decodeJwt(token), nowSeconds);
  } catch {
    return undefined;
  }
}

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isText = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 256;

function checkClaims(raw: Record<string, unknown>, now: number): TokenClaims | undefined {
  const audience = Array.isArray(raw.aud) ? raw.aud : [raw.aud];
  if (raw.iss !== JWT_ISSUER || !audience.includes(JWT_AUDIENCE)) return undefined;
  const { sub, jti, iat, exp } = raw;
  if (!isText(sub) || !isText(jti) || !isInt(iat) || !isInt(exp)) return undefined;
  if (exp <= now || iat > now + FUTURE_SKEW_SECONDS) return undefined;
  if (raw.nbf !== undefined && (!isInt(raw.nbf) || raw.nbf > now + FUTURE_SKEW_SECONDS)) return undefined;
  if (raw.typ === 'session') {
    const { sid, cid, sexp } = raw;
    if (!isText(sid) || !isText(cid) || !isInt(sexp) || sexp <= now) return undefined;
    return { typ: 'session', sub, sid, cid, sexp, jti, iat, exp };
  }
  if (raw.typ === 'service' && isText(raw.name)) return { typ: 'service', sub, name: raw.name, jti, iat, exp };
  return undefined;
}
