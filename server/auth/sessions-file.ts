/**
 * The on-disk shape of sessions.json and its validator.
 */
import { isRecord } from './shape.ts';

export interface StoredSession {
  /** SHA-256 (base64url) of the cookie value; the value itself is never stored. */
  digest: string;
  credentialId: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionsFile {
  version: 1;
  sessions: readonly StoredSession[];
}

export function parseSessionsFile(u: unknown): SessionsFile | undefined {
  if (!isRecord(u) || u['version'] !== 1 || !Array.isArray(u['sessions'])) return undefined;
  const sessions: StoredSession[] = [];
  for (const s of u['sessions']) {
    if (!isRecord(s)) return undefined;
    const { digest, credentialId, createdAt, expiresAt } = s;
    if (typeof digest !== 'string' || typeof credentialId !== 'string') return undefined;
    if (!Number.isFinite(createdAt) || !Number.isFinite(expiresAt)) return undefined;
    sessions.push({ digest, credentialId, createdAt: createdAt as number, expiresAt: expiresAt as number });
  }
  return { version: 1, sessions };
}
