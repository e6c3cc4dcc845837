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
  /** Stores a challenge and returns the id to hand to the client. */
  put<K extends CeremonyKind>(kind: K, challenge: string, payload: M[K]): { challengeId: string; expiresAt: number };
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
}

export function createChallengeStore<M extends PayloadMap>(options: ChallengeStoreOptions): ChallengeStore<M> {
  const { clock, ttlMs = CHALLENGE_TTL_MS, maxEntries = 1000 } = options;
  const records = new Map<string, ChallengeRecord<CeremonyKind, unknown>>();

  function prune(now: number): void {
    for (const [digest, r] of records) if (r.expiresAt <= now) records.delete(digest);
    while (records.size > maxEntries) records.delete(records.keys().next().value as string);
  }

  function put<K extends CeremonyKind>(kind: K, challenge: string, payload: M[K]) {
    const now = clock.now();
    const challengeId = randomId();
    const expiresAt = now + ttlMs;
    records.set(digestId(challengeId), { kind, challenge, expiresAt, payload });
    prune(now);
    return { challengeId, expiresAt };
  }

  function take<K extends CeremonyKind>(challengeId: string, kind: K): ChallengeRecord<K, M[K]> | undefined {
    if (typeof challengeId !== 'string' || challengeId === '') return undefined;
    const digest = digestId(challengeId);
    const record = records.get(digest);
    records.delete(digest);
    if (!record || record.kind !== kind || record.expiresAt <= clock.now()) return undefined;
    // The kind matched, and put() only ever stores M[kind] under that kind.
    return record as ChallengeRecord<K, M[K]>;
  }

  return { put, take, size: () => records.size };
}
