/**
 * Edge validation for settings bodies (the personas' PUT /api/console/personas/*, the voice
 * settings of both servers, discovery): every field optional (a PUT changes what it names),
 * unknown fields refused, each failure a 400 naming the field. Secrets follow the agent's rule:
 * omitted keeps, "" clears.
 */
import { badRequest } from '../errors.ts';

export type Body = Record<string, unknown>;

export function objectBody(raw: unknown, fields: readonly string[], where = 'body'): Body {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest(`${where} must be a JSON object`);
  const body = raw as Body;
  for (const name of Object.keys(body))
    if (!fields.includes(name)) throw badRequest(`unknown field ${name} (expected ${fields.join(', ')})`);
  return body;
}

export function hasControlChars(text: string): boolean {
  return [...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
}

export function optionalBool(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false`);
  return value;
}

export function optionalText(body: Body, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  if (value.length > max) throw badRequest(`${field} must be at most ${max} characters`);
  // Control characters never belong in a URL, a header value (a key) or a name.
  if (hasControlChars(value)) throw badRequest(`${field} must not contain control characters`);
  return value.trim();
}

/** An http(s) base URL (a path is appended to it): no credentials, query or trailing slash. */
export function httpUrl(raw: string, field: string): string {
  return endpointUrl(raw, field, 'http');
}

/** A ws(s) URL without credentials or trailing slash; a query is kept (some services name the deployment there). */
export function wsUrl(raw: string, field: string): string {
  return endpointUrl(raw, field, 'ws');
}

function endpointUrl(raw: string, field: string, scheme: 'http' | 'ws'): string {
  const kind = `${scheme === 'http' ? 'an' : 'a'} ${scheme}(s) URL`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest(`${field} must be ${kind}`);
  }
  if (url.protocol !== `${scheme}:` && url.protocol !== `${scheme}s:`) throw badRequest(`${field} must be ${kind}`);
  if (url.username || url.password) throw badRequest(`${field} must not carry credentials`);
  if (url.hash || (scheme === 'http' && url.search)) throw badRequest(`${field} must not have a query or fragment`);
  return raw.replace(/\/+$/, '');
}

/** `secret` typed in a PUT: undefined keeps the stored one (only while `sameTarget`), '' clears. */
export function nextSecret(
  typed: string | undefined,
  stored: string | undefined,
  sameTarget: boolean,
): string | undefined {
  if (typed !== undefined) return typed === '' ? undefined : typed;
  return sameTarget ? stored : undefined;
}
