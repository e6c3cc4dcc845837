/**
 * The HS256 signing secret of the wheeled server: 32 random bytes generated on first run and kept in
 * `<dataDir>/jwt-secret` (mode 0600, docs/architecture.md, "Configuration and persistence"). Deleting the file revokes every
 * token at once: a new secret is made on the next start.
 */
import { randomBytes } from 'node:crypto';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE, writeFileAtomic } from '../../store/atomic-write.ts';
import { readStored } from '../../store/read-stored.ts';

export const JWT_SECRET_FILE = 'jwt-secret';

const VALID = /^[A-Za-z0-9_-]{43,128}$/;

/**
 * The secret as bytes. A file that does not hold a usable secret is an error naming it:
 * replacing it silently would log out every browser and break every script's service token.
 */
export async function ensureJwtSecret(dataDir: string): Promise<Uint8Array> {
  const file = join(dataDir, JWT_SECRET_FILE);
  // A folder, a pipe or a file far longer than a secret is named as the problem: a bare read
  // failed on a folder with an error naming no file, and read a pipe for ever.
  const found = await readStored(file, 4096);
  if ('unusable' in found)
    throw new Error(`${file} does not hold a usable secret (${found.unusable}); move it aside to generate a new one`);
  const stored = 'text' in found ? found.text.trim() : undefined;
  if (stored !== undefined) {
    if (!VALID.test(stored)) throw new Error(`${file} does not hold a usable secret; delete it to generate a new one`);
    await chmod(file, FILE_MODE);
    return Buffer.from(stored, 'base64url');
  }
  const secret = randomBytes(32);
  await writeFileAtomic(file, `${secret.toString('base64url')}\n`);
  return secret;
}
