/** The event receipt feed: newest first, each once, bounded, with times and credentials said plainly. */
import type { CredentialKind, EventFrame } from '../../../../server/contract/index.ts';

export const FEED_LIMIT = 100;

/** Adds receipts (from the socket or the opening read of /api/log), newest first, each id once. */
export function mergeReceipts(feed: readonly EventFrame[], incoming: readonly EventFrame[], limit = FEED_LIMIT): EventFrame[] {
  const byId = new Map<number, EventFrame>();
  for (const event of [...feed, ...incoming]) byId.set(event.id, event);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, limit);
}

const CREDENTIAL: Readonly<Record<CredentialKind, string>> = {
  token: 'owner token',
  passkey: 'passkey',
  loopback: 'on the robot',
  'local-window': 'desktop window',
  system: 'cockpit',
};

export function credentialLabel(kind: string): string {
  return CREDENTIAL[kind as CredentialKind] ?? kind;
}

/** 24-hour local clock time with seconds: receipts are read to match them with what happened. */
export function receiptTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '--:--:--';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
