/**
 * Fits a relay reply into the 8192-byte payload limit (docs/platform.md, "Limits"; the CLI trims
 * so the *serialised* reply fits, docs/platform.md, "Devices"). The text is cut on code-point
 * boundaries with a note saying how much was left out; images are already URLs (media goes
 * through POST /api/media) and are dropped from the end only if even an empty text cannot fit.
 */
import { LIMITS } from './limits.ts';

/** An image reference in a reply: a worker /media/<key> URL and its format (docs/platform.md, "Devices"). */
export interface ReplyImage {
  url: string;
  format: string;
}

/** The reply payload of an envelope (docs/platform.md, "Devices"). */
export interface ReplyPayload {
  result: string;
  images?: ReplyImage[];
}

const utf8 = new TextEncoder();

/** Serialised size in UTF-8 bytes. */
export function jsonBytes(value: unknown): number {
  return utf8.encode(JSON.stringify(value)).byteLength;
}

function trimmedNote(dropped: number, total: number): string {
  return `\n… [trimmed: ${dropped} of ${total} characters not sent]`;
}

function reply(result: string, images: ReplyImage[]): ReplyPayload {
  return images.length > 0 ? { result, images } : { result };
}

/** The longest prefix of `chars` whose reply fits `limit`, or null if none does. */
function longestFit(chars: string[], images: ReplyImage[], limit: number): ReplyPayload | null {
  const build = (k: number) => reply(chars.slice(0, k).join('') + trimmedNote(chars.length - k, chars.length), images);
  if (jsonBytes(build(0)) > limit) return null;
  // The serialised size grows with k (each char adds at least a byte; the note shrinks by at
  // most one digit), so a binary search finds the longest prefix that fits.
  let lo = 0;
  let hi = Math.min(chars.length - 1, limit);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonBytes(build(mid)) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return build(lo);
}

/** Returns the reply serialised so that it fits `limit` bytes (default 8192). */
export function fitReply(payload: ReplyPayload, limit: number = LIMITS.relayPayloadBytes): string {
  const chars = Array.from(payload.result);
  let images = payload.images ?? [];
  for (;;) {
    const whole = reply(payload.result, images);
    if (jsonBytes(whole) <= limit) return JSON.stringify(whole);
    const fitted = longestFit(chars, images, limit);
    if (fitted) return JSON.stringify(fitted);
    if (images.length === 0) return JSON.stringify({ result: '[reply too large to send]' });
    images = images.slice(0, -1);
  }
}
