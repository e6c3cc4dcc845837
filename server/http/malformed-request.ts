/**
 * The first middleware of both servers, and the first check of every socket upgrade: a request
 * whose target or Host cannot be parsed is answered 400 before anything reads `ctx.path` (Koa's
 * URL parser throws on targets such as `http://[/ws`, and a throw there would escape the error
 * handler, which logs the path).
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { Log } from '../log.ts';
import { SECURITY_HEADERS } from './security-headers.ts';
import { MAX_TARGET, parseHost, parseTarget, type Parsed, type Target } from './untrusted-input.ts';

/** The request's target, or why it cannot be served. The Host header is checked along with it. */
export function readRequest(req: IncomingMessage): Parsed<Target> {
  const target = parseTarget(req.url);
  if (!target.ok) return target;
  const host = parseHost(req.headers.host);
  return host.ok ? target : host;
}

/**
 * A path of unreserved characters and slashes with at most a plain query: nothing in it can make
 * the URL parser or Koa's path reader throw, so the common request skips the full parse.
 */
const PLAIN_TARGET = /^\/[A-Za-z0-9._~/-]*(\?[A-Za-z0-9._~=&%+-]*)?$/;

export function isPlainTarget(url: string | undefined): url is string {
  return url !== undefined && url.length <= MAX_TARGET && PLAIN_TARGET.test(url);
}

export function refuseMalformed(): Middleware {
  return function refuseMalformedRequest(ctx, next) {
    if (isPlainTarget(ctx.req.url)) return next();
    const target = parseTarget(ctx.req.url);
    let problem = target.ok ? undefined : target.reason;
    if (problem === undefined) {
      try {
        void ctx.path;
      } catch {
        problem = 'malformed request target';
      }
    }
    if (problem === undefined) return next();
    ctx.set(SECURITY_HEADERS as Record<string, string>);
    ctx.status = 400;
    ctx.body = { error: problem, code: 'BAD_REQUEST' };
    return undefined;
  };
}

/**
 * Koa's 'error' event: errors raised while writing a response (the error handler has answered
 * everything before that). A client that hangs up mid-request or mid-stream is routine.
 */
export function onResponseError(log: Log): (err: NodeJS.ErrnoException) => void {
  return (err) => {
    const routine =
      err.code === 'ECONNRESET' ||
      err.code === 'EPIPE' ||
      err.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
      err.code === 'ECONNABORTED' ||
      err.message === 'aborted';
    log[routine ? 'debug' : 'warn']('response error', { code: err.code, error: err.message });
  };
}
