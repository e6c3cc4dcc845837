/**
 * Server-side WebAuthn challenges (docs/contract.md, "Passkey flow"): each ceremony's
 * challenge is kept here under a random id that the client echoes back. A challenge is bound to
 * its ceremony type, expires after 5 minutes and is removed on first use, so a captured response
 * can never be replayed.
 */
import type { Clock } from './clock.ts';
import { digestId, randomId } from './secret-id.ts';

export const CHALLENGE_TTL_MS = 5 * 60_000;

export type CeremonyKind = 'register' | 'login';

export interface ChallengeRecord<K extends CeremonyKind, P> {
  kind: K;
  /** The base64url challenge given to the authenticator. */
  challenge: string;
  expiresAt: number;
  payload: P;
}

/** What each ceremony keeps beside its challenge. */
export type PayloadMap = Record<CeremonyKind, unknown>;

/**
 * One store for both ceremonies, so an id presented to the wrong ceremony is found (and
 * consumed) rather than left usable.
 */
export interface ChallengeStore<M extends PayloadMap> {
  /**
   * Stores a challenge and returns the id to hand to the client. `client` (the caller's address)
   * is whose share of the store it counts against.
   */
  put<K extends CeremonyKind>(
    kind: K,
    challenge: string,
    payload: M[K],
    client?: string,
  ): { challengeId: string; expiresAt: number };
  /**
   * Removes and returns the record when it exists, has `kind` and has not expired. A record of
   * the wrong kind is removed too: it has been presented where it does not belong.
   */
  take<K extends CeremonyKind>(challengeId: string, kind: K): ChallengeRecord<K, M[K]> | undefined;
  size(): number;
}

export interface ChallengeStoreOptions {
  clock: Clock;
  ttlMs?: number;
  /** Outstanding ceremonies kept at most; anonymous callers can start them, so bound them. */
  maxEntries?: number;
  /** Outstanding ceremonies kept at most for one client; its own oldest goes first. */
  maxPerClient?: number;
}

interface Held {
  record: ChallengeRecord<CeremonyKind, unknown>;
  client: string;
}

export function createChallengeStore<M extends PayloadMap>(options: ChallengeStoreOptions): ChallengeStore<M> {
  const { clock, ttlMs = CHALLENGE_TTL_MS, maxEntries = 1000, maxPerClient = 8 } = options;
  // Map order is age, in both maps: the first digest of a client is its oldest ceremony.
  const records = new Map<string, Held>();
  const byClient = new Map<string, Set<string>>();

  function drop(digest: string): Held | undefined {
    const held = records.get(digest);
    if (!held) return undefined;
    records.delete(digest);
    const mine = byClient.get(held.client);
    mine?.delete(digest);
    if (mine?.size === 0) byClient.delete(held.client);
    return held;
  }

  const dropOldestOf = (mine: Set<string>) => void drop(mine.values().next().value as string);

  /**
   * Over the cap, the client holding the most ceremonies loses its oldest. Evicting the oldest
   * overall let one caller flooding /api/auth/login/begin push out the owner's ceremony while the
   * owner was touching the authenticator, so no passkey sign-in could complete.
   */
  function prune(now: number, client: string): void {
    for (const [digest, held] of records) if (held.record.expiresAt <= now) drop(digest);
    const mine = byClient.get(client);
    while (mine && mine.size > maxPerClient) dropOldestOf(mine);
    while (records.size > maxEntries) {
      let biggest: Set<string> | undefined;
      for (const set of byClient.values()) if (!biggest || set.size > biggest.size) biggest = set;
      if (!biggest) break;
      dropOldestOf(biggest);
    }
  }

  function put<K extends CeremonyKind>(kind: K, challenge: string, payload: M[K], client = '') {
    const now = clock.now();
    const challengeId = randomId();
    const expiresAt = now + ttlMs;
    const digest = digestId(challengeId);
    records.set(digest, { record: { kind, challenge, expiresAt, payload }, client });
    byClient.set(client, (byClient.get(client) ?? new Set()).add(digest));
    prune(now, client);
    return { challengeId, expiresAt };
  }

  function take<K extends CeremonyKind>(challengeId: string, kind: K): ChallengeRecord<K, M[K]> | undefined {
    if (typeof challengeId !== 'string' || challengeId === '') return undefined;
    const record = drop(digestId(challengeId))?.record;
    if (!record || record.kind !== kind || record.expiresAt <= clock.now()) return undefined;
    // The kind matched, and put() only ever stores M[kind] under that kind.
    return record as ChallengeRecord<K, M[K]>;
  }

  return { put, take, size: () => records.size };
}
