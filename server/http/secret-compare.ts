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
 * tokensEqual for a secret checked on every request (the owner token): the expected side's
 * digest is kept between calls, since hashing it each time showed in the throughput benchmark.
 * One entry only: a different secret simply replaces it.
 */
export function matchesSecret(presented: string, secret: string): boolean {
  if (expected?.secret !== secret) expected = { secret, digest: sha256(secret) };
  return timingSafeEqual(sha256(presented), expected.digest);
}

let expected: { secret: string; digest: Buffer } | undefined;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
