/**
 * The owner bearer token (cockpit-api.md, Authentication: "owner bearer"): ROBOT_TOKEN when
 * configured, else one generated on first run and kept in the data dir.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE, writeFileAtomic } from '../store/atomic-write.ts';

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

async function readStored(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

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
