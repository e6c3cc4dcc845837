/**
 * Constant-time comparison of secrets (the owner token, the enrolment token). It sits with the
 * request plumbing because the access gate checks the bearer on every request; the auth stores
 * use it too.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in constant time. Both sides are hashed first, so the comparison always
 * runs over 32 bytes and neither the content nor the length of the expected secret leaks.
 */
export function tokensEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/**
 * tokensEqual for the secret checked on every request (the owner token), without hashing: the
 * presented digest was the largest single cost of an authenticated request in the throughput
 * benchmark (bench/RESULTS.md). The bytes are still compared in constant time; the one thing
 * the timing can tell is whether the presented length equals the secret's, and a length of
 * 16 to 256 characters (43 when generated, server/auth/owner-token.ts) is no help to a guesser.
 */
export function matchesSecret(presented: string, secret: string): boolean {
  if (expected?.secret !== secret) expected = { secret, bytes: Buffer.from(secret, 'utf8') };
  const want = expected.bytes;
  const got = Buffer.from(presented, 'utf8');
  if (got.length !== want.length) return false;
  return timingSafeEqual(got, want);
}

let expected: { secret: string; bytes: Buffer } | undefined;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
