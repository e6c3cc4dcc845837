/**
 * What a claimed envelope becomes. Delivery is at most once (docs/platform.md, "Devices"): the poll already consumed the row, so EVERY envelope gets a PATCH reply, whatever
 * happens here. invoke runs a fleet turn, notify raises a notification and is acknowledged,
 * anything else is answered "unsupported envelope type".
 */
import type { PlatformNotice } from '../server/contract/index.ts';
import { LIMITS, UNSUPPORTED_ENVELOPE } from './limits.ts';
import type { ReplyImage, ReplyPayload } from './reply-fit.ts';

/** A fleet turn handed to the injected agent runner: fleet turns get no fleet tools (docs/platform.md, "Errors"). */
export interface FleetTurn {
  /** The prompt, marked with the fleet depth: `[fleet depth=1 from owner] ...`. */
  prompt: string;
  fleet: true;
  depth: number;
  /** Aborted when the turn overruns its budget; the reply has then already been sent. */
  signal: AbortSignal;
}

/** An image produced by a turn, as bytes; it is stored through POST /api/media. */
export interface FleetImage {
  data: Uint8Array;
  contentType: string;
}

/** What the runner returns. */
export interface FleetTurnResult {
  text: string;
  images?: FleetImage[];
}

/** A parsed envelope. */
export type Envelope =
  | { type: 'invoke'; prompt: string; from: string | null }
  | { type: 'notify'; notification: PlatformNotice }
  | { type: 'invalid'; reason: string }
  | { type: 'other'; name: string };

function asObject(payload: unknown): Record<string, unknown> | null {
  let value = payload;
  // The payload is JSON inside a string; an object is tolerated too (docs/platform.md, "Devices").
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

const text = (v: unknown, max: number, fallback = ''): string => (typeof v === 'string' ? v.slice(0, max) : fallback);

/** Parses an envelope payload (string or object). */
export function parseEnvelope(payload: unknown): Envelope {
  const body = asObject(payload);
  if (!body || typeof body.type !== 'string')
    return { type: 'invalid', reason: 'envelope payload is not a JSON object with a type' };
  if (body.type === 'invoke') {
    if (typeof body.prompt !== 'string' || body.prompt.trim() === '')
      return { type: 'invalid', reason: 'invoke envelope has no prompt' };
    return { type: 'invoke', prompt: body.prompt, from: typeof body.from === 'string' ? body.from : null };
  }
  if (body.type === 'notify') {
    const notification = {
      title: text(body.title, LIMITS.pushTitleChars),
      body: text(body.body, LIMITS.pushBodyChars),
      tag: text(body.tag, 200),
      url: text(body.url, 2000, '/'),
    };
    return { type: 'notify', notification };
  }
  return { type: 'other', name: body.type };
}

const MARK = /^\[fleet depth=(\d+)[^\]]*\]\s*/;

/**
 * Marks a relayed prompt with its fleet depth (docs/platform.md, "Errors": `[fleet depth=1 from <name>] `).
 * The envelope carries no sender name, and only the owner's session can send one, so the
 * sender is "owner" unless the envelope names one. A prompt already marked keeps its depth.
 */
export function markFleetPrompt(prompt: string, from: string | null): { prompt: string; depth: number } {
  const existing = MARK.exec(prompt);
  if (existing) return { prompt, depth: Math.max(1, Number(existing[1])) };
  return { prompt: `[fleet depth=1 from ${senderName(from)}] ${prompt}`, depth: 1 };
}

/** The most of a sender's name the mark carries. */
export const SENDER_NAME_MAX = 64;

/**
 * The envelope's `from` as it may stand in the mark: one line, no brackets, at most 64
 * characters. Taken whole, a long one filled the prompt, and one holding `]` or a line break
 * wrote text of its own into the mark, which the model reads as the platform's words.
 */
function senderName(from: string | null): string {
  const name = (from ?? '')
    .replace(/[\p{Cc}[\]]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, SENDER_NAME_MAX)
    .trim();
  return name || 'owner';
}

/** The reply to an unsupported type (the CLI's answer, accepted by the worker as an ack). */
export function unsupportedReply(): ReplyPayload {
  return { result: UNSUPPORTED_ENVELOPE };
}

/** The acknowledgement of a notify envelope. */
export function notifiedReply(): ReplyPayload {
  return { result: 'notification shown' };
}

/** An error reply: the CLI's `Error: …` text convention (docs/platform.md, "Errors"). */
export function errorReply(message: string): ReplyPayload {
  return { result: `Error: ${message}` };
}

/** A result reply with optional image references. */
export function resultReply(result: string, images: ReplyImage[]): ReplyPayload {
  return images.length > 0 ? { result, images } : { result };
}
