/**
 * What the cockpit pushes to the owner's browsers, and the payload every notice
 * carries. The payload follows the platform's convention (docs/platform.md, "Web Push" and the
 * "Push payload" resource): title at most 100 characters, body at most 400, a url a click opens,
 * and a tag so a newer notice of the same kind replaces the older one on the device.
 */
import type { PushKind } from '../contract/push.ts';

/** The kinds of notice (server/contract/push.ts), each of which the owner can switch off. */
export const PUSH_KINDS = ['daemon', 'camera', 'stop', 'agent', 'platform'] as const satisfies readonly PushKind[];
export type { PushKind };

// The list names every kind of the contract: a kind added there and not here fails to compile.
const _everyKind: [Exclude<PushKind, (typeof PUSH_KINDS)[number]>] extends [never] ? true : never = true;

export const TITLE_LIMIT = 100;
export const BODY_LIMIT = 400;

export interface PushPayload {
  title: string;
  body: string;
  /** A same-origin path (or an https address) the notification opens when clicked. */
  url: string;
  tag: string;
}

/** A notice the trigger module decided on, before the owner's kind switches are applied. */
export interface PushNotice extends PushPayload {
  kind: PushKind;
  /** The credential that caused it (a stop): its own subscriptions are not told. */
  exceptCredential?: string;
  /** Seen on the device at once: a stop, a daemon outage. */
  urgent?: boolean;
}

/** Cuts by code points, so an emoji or accented letter is never split in half. */
export function clamp(text: string, limit: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= limit ? chars.join('') : `${chars.slice(0, limit - 1).join('')}…`;
}

/**
 * Where a click may lead: a path on this cockpit, or an https address (a platform notice may
 * point at the platform). Anything else (javascript:, protocol-relative //host, http) opens the
 * dashboard instead, so a notice cannot carry a click somewhere unsafe.
 */
export function safeUrl(url: string | undefined): string {
  if (!url) return '/';
  if (url.startsWith('/') && !url.startsWith('//') && !url.includes('\\')) return url.slice(0, 2048);
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && url.length <= 2048 ? parsed.href : '/';
  } catch {
    return '/';
  }
}

export function payloadOf(notice: PushPayload): PushPayload {
  return {
    title: clamp(notice.title, TITLE_LIMIT) || 'Robot Cockpit',
    body: clamp(notice.body, BODY_LIMIT),
    url: safeUrl(notice.url),
    tag: clamp(notice.tag, 64) || 'robot-cockpit',
  };
}
