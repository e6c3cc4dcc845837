/**
 * Edge validation of a wheeled-server chat text (docs/contract.md, "How the wheeled server behaves"; Limits): `{prompt}` or
 * `{text}`, a string of at most 600 characters, else 400 naming the field.
 */
import { badRequest } from '../../errors.ts';

export const CHAT_MAX_CHARS = 600;

/** The trimmed text; throws BAD_REQUEST for a missing, empty, non-string or too long one. */
export function checkChatText(value: unknown, field = 'text'): string {
  if (value === undefined || value === null) throw badRequest(`${field} is required (1-${CHAT_MAX_CHARS} characters)`);
  if (typeof value !== 'string') throw badRequest(`${field} must be a string (1-${CHAT_MAX_CHARS} characters)`);
  // The limit is on what was sent: 601 characters of which one is a space is still too long.
  if (value.length > CHAT_MAX_CHARS)
    throw badRequest(`${field} must be at most ${CHAT_MAX_CHARS} characters (got ${value.length})`);
  const text = value.trim();
  if (text === '') throw badRequest(`${field} must not be empty`);
  return text;
}

/** POST /api/chat's body: {prompt} or {text}. */
export function parseChatBody(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('body must be a JSON object');
  const body = raw as Record<string, unknown>;
  return body.prompt !== undefined ? checkChatText(body.prompt, 'prompt') : checkChatText(body.text, 'text');
}
