/**
 * The one place errors become HTTP (docs/architecture.md, "Requests"): an AppError is rendered as
 * `{error, code}` with its status; anything else is a bug, logged with its stack and answered
 * with a plain JSON 500 that leaks nothing.
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { ErrorBody } from '../contract/errors.ts';
import { isAppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { isApiPath } from './route-table.ts';

const refusal = (error: string, code: ErrorBody['code']): ErrorBody => ({ error, code });

export function errorHandler(log: Log): Middleware {
  return async function handleErrors(ctx, next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && isApiPath(ctx.path)) {
        ctx.status = 404;
        ctx.body = refusal(`no route ${ctx.method} ${ctx.path}`, 'NOT_FOUND');
      } else if (ctx.status === 405) {
        ctx.body = refusal(`method ${ctx.method} not allowed on ${ctx.path}`, 'BAD_REQUEST');
      } else if (ctx.status === 501) {
        // The router's answer to a method it does not know (TRACE, PRI, …): the client's fault.
        ctx.status = 405;
        ctx.body = refusal(`method ${ctx.method.slice(0, 32)} not allowed`, 'BAD_REQUEST');
      }
    } catch (err) {
      if (isAppError(err)) {
        ctx.status = err.status;
        ctx.set(err.headers as Record<string, string>);
        const body: ErrorBody = { ...err.extra, error: err.message, code: err.code };
        ctx.body = body;
        if (err.status >= 500) log.warn('request failed', { path: ctx.path, code: err.code, error: err.message });
        return;
      }
      if (clientHungUp(ctx.req, err)) {
        // Nobody is left to answer; not a fault of ours either.
        log.debug('client hung up mid-request', { path: ctx.path, error: (err as Error).message });
        ctx.status = 400;
        ctx.body = refusal('request incomplete', 'BAD_REQUEST');
        return;
      }
      const status = (err as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        // Koa's own ctx.throw / http-errors for client faults (e.g. bad URI encoding).
        ctx.status = status;
        ctx.body = refusal((err as Error).message || 'bad request', 'BAD_REQUEST');
        return;
      }
      log.error('unhandled error', { path: ctx.path, method: ctx.method, error: String((err as Error)?.stack ?? err) });
      ctx.status = 500;
      ctx.body = refusal('internal error', 'INTERNAL');
    }
  };
}

/** The request's socket closed before its body was read (a tab closed, Wi-Fi lost mid-upload). */
function clientHungUp(req: IncomingMessage, err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = (err as Error | undefined)?.message;
  return (req.destroyed && !req.complete) || code === 'ECONNRESET' || code === 'ECONNABORTED' || message === 'aborted';
}
