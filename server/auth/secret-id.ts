/**
 * Random bearer-style identifiers and their stored digests. Session ids, challenge ids and
 * pairing codes are secrets: lookups go by a SHA-256 digest, so the stored form is useless to
 * whoever reads the file and the map lookup leaks nothing about the secret through timing.
 */
import { createHash, randomBytes } from 'node:crypto';

/** `bytes` random bytes, base64url (32 bytes → 43 characters). */
export function randomId(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** The digest a secret id is stored and looked up under. */
export function digestId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('base64url');
}
