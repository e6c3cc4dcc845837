/**
 * The owner bearer token (docs/contract.md, "Authentication": "owner bearer"): ROBOT_TOKEN when
 * configured, else one generated on first run and kept in the data dir.
 */
import { randomBytes } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE, writeFileAtomic } from '../store/atomic-write.ts';
import { readStored as readStoredFile } from '../store/read-stored.ts';

/** The file name of the generated token inside the data dir. */
export const OWNER_TOKEN_FILE = 'owner-token';

/** Same bounds as ROBOT_TOKEN in server/config.ts. */
const VALID_TOKEN = /^[\x21-\x7e]{16,256}$/;

/**
 * Returns `configured` when given; otherwise the token stored in `<dataDir>/owner-token`,
 * generating it (32 random bytes, base64url, mode 0600) on first run. A stored file that does
 * not hold a usable token is an error naming the file: replacing it silently would lock out
 * every script that holds the old token.
 */
export async function ensureOwnerToken(dataDir: string, configured?: string): Promise<string> {
  if (configured !== undefined) return configured;
  const file = join(dataDir, OWNER_TOKEN_FILE);
  const stored = await readStored(file);
  if (stored !== undefined) {
    if (!VALID_TOKEN.test(stored)) {
      throw new Error(`${file} does not hold a usable owner token; delete it to generate a new one`);
    }
    // An older copy or a hand edit may have loosened the mode; the token is a full-owner secret.
    await chmod(file, FILE_MODE);
    return stored;
  }
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(file, `${token}\n`);
  return token;
}

/** Where an operator finds the owner token, for start-up lines (never the token itself: logs are kept). */
export function ownerTokenWhere(dataDir: string, configured?: string): string {
  return configured !== undefined
    ? 'owner token: the configured ROBOT_TOKEN'
    : `owner token in ${join(dataDir, OWNER_TOKEN_FILE)}`;
}

/**
 * The stored token's text. A folder, a pipe or a file far longer than any token in its place is
 * named as the problem, where the read failed with an error that named no file (or, for a pipe,
 * never ended).
 */
async function readStored(file: string): Promise<string | undefined> {
  const stored = await readStoredFile(file, 4096);
  if ('missing' in stored) return undefined;
  if ('unusable' in stored)
    throw new Error(
      `${file} does not hold a usable owner token (${stored.unusable}); move it aside to generate a new one`,
    );
  return stored.text.trim();
}
