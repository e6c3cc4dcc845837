/**
 * A JSON reply that no cache keeps: console answers carry settings, logs and per-caller state, so
 * a shared or back-button cache must never serve one to another caller.
 */
import type { Context } from 'koa';

export function replyNoStore(ctx: Context, body: unknown, status?: number): void {
  ctx.set('Cache-Control', 'no-store');
  if (status !== undefined) ctx.status = status;
  ctx.body = body;
}
