/**
 * A push service's check of the VAPID authorization (RFC 8292), for tests: the header is
 * `vapid t=<JWT>, k=<public key>` (§3); the JWT is ES256 (§2), signed by the key in k, its aud
 * is the origin of the push resource (§2), its exp no more than 24 hours ahead (§2), and its sub,
 * when present, a mailto: or https: contact (§2.1).
 */
import { importJWK, jwtVerify, type JWTPayload } from 'jose';

export interface VapidClaims extends JWTPayload {
  aud: string;
  exp: number;
  sub: string;
}

const DAY_S = 24 * 3600;

/** Parses `vapid t=…, k=…`; throws naming what is missing. */
export function parseVapidHeader(header: string | undefined): { token: string; key: string } {
  const match = /^vapid\s+(.*)$/i.exec(header ?? '');
  if (!match) throw new Error('Authorization is not the vapid scheme');
  const params = new Map<string, string>();
  for (const part of (match[1] as string).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) throw new Error('vapid credentials need both t and k');
  return { token, key };
}

/** Verifies the token against its k key and the push resource's origin at time `now` (ms). */
export async function verifyVapid(header: string | undefined, audience: string, now: number): Promise<VapidClaims> {
  const { token, key } = parseVapidHeader(header);
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 public key');
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33).toString('base64url'),
  };
  const publicKey = await importJWK(jwk, 'ES256');
  const { payload } = await jwtVerify(token, publicKey, {
    algorithms: ['ES256'],
    audience,
    currentDate: new Date(now),
    requiredClaims: ['aud', 'exp'],
  });
  const exp = payload.exp as number;
  if (exp > Math.floor(now / 1000) + DAY_S) throw new Error('exp is more than 24 hours ahead');
  const sub = payload.sub;
  if (sub !== undefined && !/^(mailto|https):/.test(sub)) throw new Error('sub is not a mailto: or https: contact');
  return payload as VapidClaims;
}
