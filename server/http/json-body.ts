/**
 * JSON request bodies: capped (413 past the limit), malformed JSON is a 400, and keys that
 * could pollute prototypes (`__proto__`, `constructor`, `prototype`) are dropped while parsing.
 */
import type { Context } from 'koa';
import { AppError } from '../errors.ts';

export const DEFAULT_BODY_LIMIT = 64 * 1024;

const POISON_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function parseJsonSafely(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (POISON_KEYS.has(key) ? undefined : value));
}

/** Reads the body once; an empty body is `{}` so routes with no body accept a bare POST. */
export async function readJsonBody(ctx: Context, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const cached = (ctx.state as { jsonBody?: unknown }).jsonBody;
  if (cached !== undefined) return cached;
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw new AppError('BODY_TOO_LARGE', `body over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new AppError('BODY_TOO_LARGE', `body over ${limit} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  let body: unknown = {};
  if (text) {
    try {
      body = parseJsonSafely(text);
    } catch {
      throw new AppError('BAD_JSON', 'body is not valid JSON');
    }
  }
  (ctx.state as { jsonBody?: unknown }).jsonBody = body;
  return body;
}
