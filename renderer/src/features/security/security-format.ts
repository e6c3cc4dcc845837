/** Dates, countdowns and the session line of the security page. */
import type { AuthStatus } from '../../../../server/contract/index.ts';

/** "21 Nov 2026, 06:01", or "never" for a passkey not used yet. */
export function formatWhen(iso: string | null, locale?: string, timeZone?: string): string {
  if (iso === null) return 'never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'unknown';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

/** "4:59" for a pairing link's remaining validity; "0:00" once expired. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * When a pairing link expires by this device's clock. The cockpit stamps expiry with its own
 * clock; a phone or laptop whose clock is off would count down wrongly, so when the stamp is far
 * from "now plus the validity" the validity counted from receipt is used instead.
 */
export function localExpiry(expiresAt: number, receivedAt: number, validityMs: number): number {
  const expected = receivedAt + validityMs;
  return Math.abs(expiresAt - expected) > 30_000 ? expected : expiresAt;
}

/** How this browser is signed in, in a sentence. */
export function sessionText(status: Pick<AuthStatus, 'who' | 'sessionExpiresAt'>, hasToken: boolean, locale?: string, timeZone?: string): string {
  if (status.who === 'passkey') {
    const until = status.sessionExpiresAt === null ? '' : ` until ${formatWhen(new Date(status.sessionExpiresAt).toISOString(), locale, timeZone)}`;
    return `Signed in with a passkey${until}.`;
  }
  if (status.who === 'local-window') return 'Signed in as the robot’s own desktop window.';
  if (hasToken) return 'Signed in with the owner token, kept in this browser.';
  return 'Not signed in.';
}

/** False for a link only this machine can open (localhost, a loopback address). */
export function phoneCanOpen(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return false;
  }
  return !(host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host));
}
