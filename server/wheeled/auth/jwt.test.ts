import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { JWT_AUDIENCE, JWT_ISSUER, signToken, verifyToken, type ServiceClaims } from './jwt.ts';

const secret = randomBytes(32);
const now = Math.floor(Date.now() / 1000);
const service: ServiceClaims = { typ: 'service', sub: 'script', name: 'nightly', jti: 'id-1', iat: now, exp: now + 60 };

describe('the wheeled server: JWTs', () => {
  it('signs HS256 tokens that jose verifies, and verifies them back', async () => {
    const token = await signToken(secret, service);
    const { payload, protectedHeader } = await jwtVerify(token, secret, { issuer: JWT_ISSUER, audience: JWT_AUDIENCE });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: 'script', name: 'nightly', typ: 'service', jti: 'id-1' });
    expect(verifyToken(secret, token, now)).toEqual(service);
  });

  it('accepts a session token minted by jose itself with the same claims', async () => {
    const token = await new SignJWT({ typ: 'session', sid: 'key', cid: 'cred', sexp: now + 600 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject('owner')
      .setJti('j')
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(secret);
    expect(verifyToken(secret, token, now)).toMatchObject({ typ: 'session', sid: 'key', sexp: now + 600 });
  });

  it('refuses an expired token, another secret, a tampered payload, alg none and a foreign audience', async () => {
    const token = await signToken(secret, service);
    expect(verifyToken(secret, token, now + 60)).toBeUndefined();
    expect(verifyToken(randomBytes(32), token, now)).toBeUndefined();
    const [h, p, s] = token.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'thinker' }),
    ).toString('base64url');
    expect(verifyToken(secret, `${h}.${forged}.${s}`, now)).toBeUndefined();
    // A signature in a non-canonical base64url spelling is refused too.
    expect(verifyToken(secret, `${h}.${p}.${s}=`, now)).toBeUndefined();
    const none = new UnsecuredJWT({ typ: 'service', name: 'x' })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject('s')
      .setJti('j')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .encode();
    expect(verifyToken(secret, none, now)).toBeUndefined();
    const foreign = await new SignJWT({ typ: 'service', name: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(JWT_ISSUER)
      .setAudience('someone-else')
      .setSubject('s')
      .setJti('j')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(secret);
    expect(verifyToken(secret, foreign, now)).toBeUndefined();
    expect(verifyToken(secret, 'not.a.token', now)).toBeUndefined();
  });

  it('refuses a session token whose passkey session has already ended', async () => {
    const token = await signToken(secret, {
      typ: 'session',
      sub: 'owner',
      sid: 'k',
      cid: 'c',
      sexp: now + 10,
      jti: 'j',
      iat: now,
      exp: now + 5,
    });
    expect(verifyToken(secret, token, now)).toBeDefined();
    expect(verifyToken(secret, token, now + 5)).toBeUndefined();
  });
});
