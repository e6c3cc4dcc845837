import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { ensureOwnerToken, ownerTokenWhere } from './owner-token.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(() => cleanup());

describe('ensureOwnerToken', () => {
  it('returns the configured token and writes nothing', async () => {
    expect(await ensureOwnerToken(dir, 'configured-token-123')).toBe('configured-token-123');
    await expect(stat(join(dir, 'owner-token'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('generates 32 random bytes once, stores them 0600 and returns the same token afterwards', async () => {
    const data = join(dir, 'data');
    const token = await ensureOwnerToken(data);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(join(data, 'owner-token'))).mode & 0o777).toBe(0o600);
    expect((await readFile(join(data, 'owner-token'), 'utf8')).trim()).toBe(token);
    expect(await ensureOwnerToken(data)).toBe(token);
    expect(await ensureOwnerToken(join(dir, 'other'))).not.toBe(token);
  });

  it('tightens a loosened file mode and refuses a file without a usable token', async () => {
    const file = join(dir, 'owner-token');
    await writeFile(file, 'a-hand-written-token-42\n');
    await chmod(file, 0o644);
    expect(await ensureOwnerToken(dir)).toBe('a-hand-written-token-42');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await writeFile(file, 'short\n');
    await expect(ensureOwnerToken(dir)).rejects.toThrow(/owner-token/);
    expect(await readFile(file, 'utf8')).toBe('short\n');
  });
});

describe('an owner-token that is not a file', () => {
  it('stops the start naming the file and what is there, and leaves it as it is', async () => {
    const file = join(dir, 'owner-token');
    await mkdir(file);
    await expect(ensureOwnerToken(dir)).rejects.toThrow(
      `${file} does not hold a usable owner token (a folder, not a file)`,
    );
    expect((await stat(file)).isDirectory()).toBe(true);
  });
});

describe('ownerTokenWhere', () => {
  it('names the file only when the token is kept there', () => {
    expect(ownerTokenWhere('/data')).toBe('owner token in /data/owner-token');
    // A configured token writes no file: pointing at one would send the operator to nothing.
    expect(ownerTokenWhere('/data', 'configured-token-123')).toBe('owner token: the configured ROBOT_TOKEN');
  });
});
