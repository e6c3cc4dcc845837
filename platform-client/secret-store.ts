/**
 * Where the device token lives. The Electron shell will later supply a
 * keychain-backed SecretStore; headless hosts use the 0600-file store below.
 */
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';

/**
 * A named-secret store. Values are opaque strings; the caller serialises its own records.
 * `setAside` moves an unreadable secret out of the way so it is reported, never silently
 * replaced (docs/architecture.md, "Configuration and persistence").
 */
export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** Keeps a corrupt value aside under another name; returns where it went, or null if absent. */
  setAside(name: string): Promise<string | null>;
}

/** Options of the file-backed store. */
export interface FileSecretStoreOptions {
  /** Folder that holds one `<name>.secret` file per secret (created 0700 when missing). */
  dir: string;
  /** Clock for the set-aside suffix; injected so tests are deterministic. */
  now?: () => number;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

function fileOf(dir: string, name: string): string {
  // Names are fixed by this library; the pattern keeps a bad one from escaping the folder.
  if (!NAME.test(name)) throw new Error(`invalid secret name: ${name}`);
  return join(dir, `${name}.secret`);
}

/** A SecretStore of 0600 files written atomically (temp, fsync, rename). */
export function createFileSecretStore(options: FileSecretStoreOptions): SecretStore {
  const now = options.now ?? Date.now;
  return {
    async get(name) {
      try {
        return await readFile(fileOf(options.dir, name), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    set: async (name, value) => writeFileAtomic(fileOf(options.dir, name), value),
    delete: async (name) => rm(fileOf(options.dir, name), { force: true }),
    async setAside(name) {
      const file = fileOf(options.dir, name);
      const aside = `${file}.corrupt-${now()}`;
      try {
        await rename(file, aside);
        return aside;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}

/** An in-memory SecretStore, for tests and for hosts that must not persist anything. */
export function createMemorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    get: async (name) => values.get(name) ?? null,
    set: async (name, value) => void values.set(name, value),
    delete: async (name) => void values.delete(name),
    async setAside(name) {
      const value = values.get(name);
      if (value === undefined) return null;
      values.delete(name);
      values.set(`${name}-corrupt`, value);
      return `${name}-corrupt`;
    },
  };
}
