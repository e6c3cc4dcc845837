/**
 * What does not fit a message travels through POST /api/media as a URL (docs/platform.md
 * "Limits": "larger results go through /api/media as a URL"): images always, and text results
 * over 8192 bytes. The text then carries its beginning and the URL of the whole. If the
 * platform will not store it, the text is trimmed with a note instead: a result is never lost
 * silently and never sent over the limit.
 */
import { LIMITS, TEXT_MEDIA_TYPE } from './limits.ts';
import type { MediaInput, StoredMedia } from './device-routes.ts';
import { jsonBytes } from './reply-fit.ts';
import type { Outcome } from './types.ts';

/** Stores bytes through POST /api/media (the device route, with its own longer bound). */
export type Upload = (input: MediaInput) => Promise<Outcome<StoredMedia>>;

/** An image reference as replies and tool results carry it: a worker /media/<key> URL (docs/platform.md, "Devices"). */
export interface MediaRef {
  url: string;
  format: string;
}

/** How much of an offloaded text stays inline, so a reader sees what it is about. */
const PREVIEW_CHARS = 1000;

const utf8 = new TextEncoder();

function formatOf(contentType: string): string {
  return contentType.split(';')[0]?.split('/')[1] ?? contentType;
}

/** Uploads each image; one that cannot be stored becomes a note instead of failing the rest. */
export async function uploadImages(
  upload: Upload,
  images: readonly MediaInput[],
): Promise<{ refs: MediaRef[]; notes: string[] }> {
  const refs: MediaRef[] = [];
  const notes: string[] = [];
  for (const image of images) {
    const stored = await upload(image);
    if (stored.ok) refs.push({ url: stored.value.url, format: formatOf(image.contentType) });
    else notes.push(`[image not sent: ${stored.failure.message}]`);
  }
  return { refs, notes };
}

/**
 * Returns `text` as it is when its JSON form fits `limit` bytes; otherwise stores it as text and
 * returns its beginning with the URL of the whole (`url` set). When the store refuses, the text
 * is returned as it is and the caller's fitting trims it.
 */
export async function offloadText(
  upload: Upload,
  text: string,
  limit: number = LIMITS.relayPayloadBytes,
): Promise<{ text: string; url?: string }> {
  if (jsonBytes(text) <= limit) return { text };
  const stored = await upload({ data: utf8.encode(text), contentType: TEXT_MEDIA_TYPE });
  if (!stored.ok) return { text };
  const preview = Array.from(text).slice(0, PREVIEW_CHARS).join('');
  const size = utf8.encode(text).byteLength;
  return { text: `${preview}\n… [the whole result (${size} bytes) is at ${stored.value.url}]`, url: stored.value.url };
}
