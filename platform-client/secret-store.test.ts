import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSecretStore } from './secret-store.ts';

async function freshDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'pc-secrets-'));
}

describe('createFileSecretStore', () => {
  it('writes a 0600 file atomically and reads it back', async () => {
    const dir = join(await freshDir(), 'nested');
    const store = createFileSecretStore({ dir });
    expect(await store.get('platform-device')).toBeNull();
    await store.set('platform-device', 'first');
    await store.set('platform-device', 'second');
    expect(await store.get('platform-device')).toBe('second');
    const info = await stat(join(dir, 'platform-device.secret'));
    expect(info.mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    // No temp file is left behind by the temp+rename dance.
    expect(await readdir(dir)).toEqual(['platform-device.secret']);
  });

  it('deletes, and deleting twice is fine', async () => {
    const store = createFileSecretStore({ dir: await freshDir() });
    await store.set('a', 'x');
    await store.delete('a');
    await store.delete('a');
    expect(await store.get('a')).toBeNull();
  });

  it('sets a corrupt value aside instead of replacing it', async () => {
    const dir = await freshDir();
    await writeFile(join(dir, 'platform-device.secret'), '{not json');
    const store = createFileSecretStore({ dir, now: () => 42 });
    const aside = await store.setAside('platform-device');
    expect(aside).toBe(join(dir, 'platform-device.secret.corrupt-42'));
    expect(await readFile(aside as string, 'utf8')).toBe('{not json');
    expect(await store.get('platform-device')).toBeNull();
    expect(await store.setAside('platform-device')).toBeNull();
  });

  it('refuses names that could escape the folder', async () => {
    const store = createFileSecretStore({ dir: await freshDir() });
    await expect(store.set('../evil', 'x')).rejects.toThrow(/invalid secret name/);
  });
});
