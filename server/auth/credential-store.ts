/**
 * The enrolled passkeys, persisted in `<dataDir>/credentials.json`. Every change is one
 * synchronous update of the in-memory document followed by a durable write, so a check made
 * inside a change (e.g. "still no credential") cannot be raced by another request.
 */
import { join } from 'node:path';
import type { PublicCredential } from '../contract/auth.ts';
import { AppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { createJsonDocument } from '../store/json-document.ts';
import type { Clock } from './clock.ts';
import { parseCredentialsFile } from './credentials-file.ts';
import type { CredentialsFile, StoredCredential } from './credentials-file.ts';
import { randomId } from './secret-id.ts';

export const CREDENTIALS_FILE = 'credentials.json';

export interface CredentialStore {
  count(): number;
  all(): readonly StoredCredential[];
  find(id: string): StoredCredential | undefined;
  /** The owner's stable WebAuthn user handle (base64url). */
  userId(): string;
  /**
   * True while no passkey exists yet: the next enrolment is trust on first use. False after a
   * corrupt file was set aside at start, until a passkey is enrolled by other means.
   */
  firstUseOpen(): boolean;
  /**
   * Adds a credential. With `onlyIfEmpty` the add is refused (AUTH_FORBIDDEN) when any
   * credential exists at the moment of committing: this is what lets exactly one of two
   * concurrent trust-on-first-use enrolments win.
   */
  add(credential: StoredCredential, options: { onlyIfEmpty: boolean }): Promise<void>;
  /** Stores a verified sign-in's counter and time; false when the credential is gone. */
  recordUse(id: string, counter: number): Promise<boolean>;
  rename(id: string, label: string): Promise<boolean>;
  remove(id: string): Promise<boolean>;
}

export interface CredentialStoreOptions {
  dataDir: string;
  clock: Clock;
  log: Log;
}

export function toPublicCredential(c: StoredCredential): PublicCredential {
  return { id: c.id, label: c.label, createdAt: c.createdAt, lastUsedAt: c.lastUsedAt };
}

/** Opens (loading) the credential store. */
export async function createCredentialStore(options: CredentialStoreOptions): Promise<CredentialStore> {
  const { clock } = options;
  let setAside = false;
  const doc = createJsonDocument<CredentialsFile>({
    file: join(options.dataDir, CREDENTIALS_FILE),
    defaults: () => ({ version: 1, userId: randomId(32), credentials: [] }),
    validate: parseCredentialsFile,
    log: options.log,
    now: () => clock.now(),
    onSetAside: () => (setAside = true),
  });
  await doc.load();
  // Unreadable passkeys are not "no passkey yet": anyone on the LAN could enrol and take the
  // robot. The closure is written down, since the next start finds no file at all and would
  // take that for a first run; it holds in memory even if that write fails.
  let closedHere = setAside;
  if (setAside) {
    options.log.warn('stored passkeys could not be read; enrolment needs the owner token or the enrolment token');
    await doc
      .save({ ...doc.get(), firstUseClosed: true })
      .catch((error: unknown) =>
        options.log.error('could not record that enrolment is closed', { error: String(error) }),
      );
  }
  const list = () => doc.get().credentials;
  const find = (id: string) => list().find((c) => c.id === id);

  /** Replaces one credential through `change`; false when it does not exist. */
  async function modify(id: string, change: (c: StoredCredential) => StoredCredential | undefined): Promise<boolean> {
    if (!find(id)) return false;
    await doc.update((cur) => ({
      ...cur,
      credentials: cur.credentials.flatMap((c) => {
        if (c.id !== id) return [c];
        const next = change(c);
        return next ? [next] : [];
      }),
    }));
    return true;
  }

  async function add(credential: StoredCredential, opts: { onlyIfEmpty: boolean }): Promise<void> {
    await doc.update((cur) => {
      if (opts.onlyIfEmpty && cur.credentials.length > 0) {
        throw new AppError('AUTH_FORBIDDEN', 'enrolment closed: another passkey was enrolled first; sign in with it');
      }
      if (cur.credentials.some((c) => c.id === credential.id)) {
        throw new AppError('CONFLICT', 'this passkey is already enrolled');
      }
      const { firstUseClosed: _reopenedLater, ...rest } = cur;
      return { ...rest, credentials: [...cur.credentials, credential] };
    });
    closedHere = false;
  }

  return {
    count: () => list().length,
    all: list,
    find,
    userId: () => doc.get().userId,
    firstUseOpen: () => list().length === 0 && !closedHere && doc.get().firstUseClosed !== true,
    add,
    recordUse: (id, counter) => modify(id, (c) => ({ ...c, counter, lastUsedAt: new Date(clock.now()).toISOString() })),
    rename: (id, label) => modify(id, (c) => ({ ...c, label })),
    remove: (id) => modify(id, () => undefined),
  };
}
