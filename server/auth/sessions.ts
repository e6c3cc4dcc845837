/**
 * Server-side passkey sessions (stored server-side, survive a restart, end at logout
 * or expiry). The cookie carries a random id; only its SHA-256 digest is stored, so a copy of
 * sessions.json cannot be replayed as a cookie.
 */
import { join } from 'node:path';
import type { Log } from '../log.ts';
import { createJsonDocument } from '../store/json-document.ts';
import type { JsonDocument } from '../store/json-document.ts';
import type { Clock } from './clock.ts';
import { digestId, randomId } from './secret-id.ts';
import { parseSessionsFile } from './sessions-file.ts';
import type { SessionsFile, StoredSession } from './sessions-file.ts';

export const SESSIONS_FILE = 'sessions.json';

/** A live session. `key` is a stable, non-secret handle (the digest) for listeners. */
export interface Session {
  key: string;
  credentialId: string;
  createdAt: number;
  /** Epoch ms; a WebSocket opened under this session should close at this time. */
  expiresAt: number;
}

export type SessionEndReason = 'logout' | 'revoked' | 'expired' | 'evicted';
export type SessionEndListener = (key: string, reason: SessionEndReason) => void;

export interface SessionStore {
  /** Starts a session; resolves once it is durable. `id` is the cookie value. */
  create(input: { credentialId: string; ttlSeconds: number }): Promise<{ id: string; key: string; expiresAt: number }>;
  /** The live session for a cookie value; an expired one is removed and reported. */
  validate(id: string): Session | undefined;
  /** True while the session with this key (not the cookie value) lives: tokens minted for it check this. */
  isLive(key: string): boolean;
  /** Ends one session (logout); false when it did not exist. */
  destroy(id: string): Promise<boolean>;
  /** Ends every session opened with a credential (the passkey was deleted); returns how many. */
  destroyByCredential(credentialId: string): Promise<number>;
  /** Removes expired sessions; returns how many. */
  pruneExpired(): Promise<number>;
  /** Called whenever a session ends, so a WebSocket hub can close its sockets. */
  onEnd(listener: SessionEndListener): () => void;
}

export interface SessionStoreOptions {
  dataDir: string;
  clock: Clock;
  log: Log;
  /** Sessions kept at most; the oldest are evicted beyond it (one owner, a few devices). */
  maxSessions?: number;
}

/** Opens (loading) the session store over `<dataDir>/sessions.json`. */
export async function createSessionStore(options: SessionStoreOptions): Promise<SessionStore> {
  const doc = createJsonDocument<SessionsFile>({
    file: join(options.dataDir, SESSIONS_FILE),
    defaults: () => ({ version: 1, sessions: [] }),
    validate: parseSessionsFile,
    log: options.log,
    now: () => options.clock.now(),
  });
  await doc.load();
  return new PersistedSessions(doc, options);
}

class PersistedSessions implements SessionStore {
  readonly #doc: JsonDocument<SessionsFile>;
  readonly #clock: Clock;
  readonly #log: Log;
  readonly #maxSessions: number;
  readonly #listeners = new Set<SessionEndListener>();

  constructor(doc: JsonDocument<SessionsFile>, options: SessionStoreOptions) {
    this.#doc = doc;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#maxSessions = options.maxSessions ?? 100;
  }

  async create(input: { credentialId: string; ttlSeconds: number }) {
    if (!Number.isInteger(input.ttlSeconds) || input.ttlSeconds < 1) {
      throw new RangeError('ttlSeconds must be a positive integer');
    }
    const now = this.#clock.now();
    const id = randomId();
    const session: StoredSession = {
      digest: digestId(id),
      credentialId: input.credentialId,
      createdAt: now,
      expiresAt: now + input.ttlSeconds * 1000,
    };
    const live = this.#doc.get().sessions.filter((s) => s.expiresAt > now);
    const evicted = live.slice(0, Math.max(0, live.length + 1 - this.#maxSessions));
    await this.#doc.save({ version: 1, sessions: [...live.filter((s) => !evicted.includes(s)), session] });
    this.#emit(evicted, 'evicted');
    return { id, key: session.digest, expiresAt: session.expiresAt };
  }

  validate(id: string): Session | undefined {
    if (typeof id !== 'string' || id === '') return undefined;
    const digest = digestId(id);
    const found = this.#doc.get().sessions.find((s) => s.digest === digest);
    if (!found) return undefined;
    if (found.expiresAt > this.#clock.now()) return toSession(found);
    // The gate is synchronous; the removal is written in the background and a failure only
    // leaves an expired row that will be removed again next time.
    this.#remove((s) => (s.digest === digest ? 'expired' : undefined)).catch((error: unknown) =>
      this.#log.error('could not remove an expired session', { error: String(error) }),
    );
    return undefined;
  }

  isLive(key: string): boolean {
    const found = this.#doc.get().sessions.find((s) => s.digest === key);
    return found !== undefined && found.expiresAt > this.#clock.now();
  }

  async destroy(id: string): Promise<boolean> {
    if (typeof id !== 'string' || id === '') return false;
    const digest = digestId(id);
    return (await this.#remove((s) => (s.digest === digest ? 'logout' : undefined))) > 0;
  }

  destroyByCredential(credentialId: string): Promise<number> {
    return this.#remove((s) => (s.credentialId === credentialId ? 'revoked' : undefined));
  }

  pruneExpired(): Promise<number> {
    const now = this.#clock.now();
    return this.#remove((s) => (s.expiresAt <= now ? 'expired' : undefined));
  }

  onEnd(listener: SessionEndListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Removes the sessions `ends` names a reason for, in one write, then tells listeners. */
  async #remove(ends: (s: StoredSession) => SessionEndReason | undefined): Promise<number> {
    const ended: Array<[StoredSession, SessionEndReason]> = [];
    const sessions = this.#doc.get().sessions.filter((s) => {
      const reason = ends(s);
      if (reason !== undefined) ended.push([s, reason]);
      return reason === undefined;
    });
    if (ended.length === 0) return 0;
    await this.#doc.save({ version: 1, sessions });
    for (const [s, reason] of ended) this.#emit([s], reason);
    return ended.length;
  }

  #emit(ended: readonly StoredSession[], reason: SessionEndReason): void {
    for (const s of ended) for (const listener of this.#listeners) listener(s.digest, reason);
  }
}

function toSession(s: StoredSession): Session {
  return { key: s.digest, credentialId: s.credentialId, createdAt: s.createdAt, expiresAt: s.expiresAt };
}
