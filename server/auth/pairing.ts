/**
 * One-time pairing codes: the signed-in desktop shows a QR link
 * carrying a code, and a phone that opens it may enrol its own passkey without the enrolment
 * token. A code lives 5 minutes and works once.
 */
import type { Clock } from './clock.ts';
import { digestId, randomId } from './secret-id.ts';

export const PAIRING_TTL_MS = 5 * 60_000;

export interface PairingCodes {
  /** A fresh code and its expiry (epoch ms). */
  issue(): { code: string; expiresAt: number };
  /** True once for a live code; false for unknown, used or expired codes. */
  redeem(code: string): boolean;
}

export interface PairingOptions {
  clock: Clock;
  ttlMs?: number;
  /** Live codes kept at most; issuing more drops the oldest (only the owner can issue). */
  maxLive?: number;
}

export function createPairingCodes(options: PairingOptions): PairingCodes {
  const { clock, ttlMs = PAIRING_TTL_MS, maxLive = 16 } = options;
  const live = new Map<string, number>();

  function prune(now: number): void {
    for (const [digest, expiresAt] of live) if (expiresAt <= now) live.delete(digest);
    while (live.size > maxLive) live.delete(live.keys().next().value as string);
  }

  function issue(): { code: string; expiresAt: number } {
    const now = clock.now();
    const code = randomId(24);
    const expiresAt = now + ttlMs;
    live.set(digestId(code), expiresAt);
    prune(now);
    return { code, expiresAt };
  }

  function redeem(code: string): boolean {
    if (typeof code !== 'string' || code === '') return false;
    const digest = digestId(code);
    const expiresAt = live.get(digest);
    live.delete(digest);
    return expiresAt !== undefined && expiresAt > clock.now();
  }

  return { issue, redeem };
}
