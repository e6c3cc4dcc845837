/**
 * The gate every route passes: resolve the caller, slow down guessers, decide by the route's
 * declared access and refuse foreign pages loopback trust, then (control routes only) rate limit
 * and same-origin check in that order (docs/contract.md, "Control pipeline"), then refuse foreign
 * pages the session cookie on every write.
 */
import type { Context, Middleware } from 'koa';
import type { CredentialKind } from '../contract/ws.ts';
import { AppError } from '../errors.ts';
import { hasKey, resolveCaller, type Caller, type CredentialSources } from './caller.ts';
import { fromForeignPage, fromForeignPageByFetchMetadata } from './origin-check.ts';
import { readSessionCookie } from './untrusted-input.ts';
import type { RouteSpec } from './route-table.ts';

export interface GateDeps {
  credentials: CredentialSources;
  loopbackReads: boolean;
  /** Growing delays for failed credentials from non-local clients (docs/security.md, "Brute force and rate limits"). */
  failures?: { delayFor(key: string): number; recordFailure(key: string): void; recordSuccess(key: string): void };
  /** Rate limit and origin check for control routes; throws an AppError to refuse. */
  controlGuard?: (ctx: Context, caller: Caller, route: RouteSpec) => void;
  /** Origins besides the request's own whose pages may use the server (ROBOT_ORIGIN); the socket hub checks them. */
  allowedOrigins?: readonly string[];
}

export function callerOf(ctx: Context): Caller {
  return (ctx.state as { caller: Caller }).caller;
}

/**
 * The kind of key the caller presented, for receipts and audit rows. The gate has already
 * refused anonymous callers on keyed routes; this keeps a mis-wired route closed too.
 */
export function credentialOf(ctx: Context): CredentialKind {
  const kind = (callerOf(ctx) as Caller | undefined)?.kind;
  if (!kind || kind === 'anonymous') throw new AppError('AUTH_REQUIRED', 'sign in or present the owner token');
  return kind;
}

/** Whether a caller may use a route of the given access with the given method. */
export function isAllowed(route: Pick<RouteSpec, 'access' | 'method'>, caller: Caller, loopbackReads: boolean): boolean {
  if (route.access === 'public') return true;
  if (hasKey(caller)) return true;
  if (!caller.local || caller.failed) return false;
  if (route.access === 'key+loopback') return true;
  const isRead = route.method === 'GET' || route.method === 'WS';
  return isRead && loopbackReads;
}

/** Methods that change nothing, which a page of another origin may send with the cookie. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sentByForeignPage(ctx: Context, deps: GateDeps): boolean {
  return fromForeignPage({
    origin: ctx.get('origin') || undefined,
    host: ctx.get('host') || undefined,
    secure: ctx.secure,
    allowedOrigins: deps.allowedOrigins ?? [],
  });
}

/** A page of another origin sent a request that has no Origin (an image, a frame, a no-cors fetch). */
function embeddedByForeignPage(ctx: Context, deps: GateDeps): boolean {
  return fromForeignPageByFetchMetadata({
    site: ctx.get('sec-fetch-site') || undefined,
    mode: ctx.get('sec-fetch-mode') || undefined,
    dest: ctx.get('sec-fetch-dest') || undefined,
    referer: ctx.get('referer') || undefined,
    allowedOrigins: deps.allowedOrigins ?? [],
  });
}

export function accessGate(route: RouteSpec, deps: GateDeps): Middleware {
  return async function gate(ctx, next) {
    const cookie = readSessionCookie(ctx.req.headers.cookie);
    // A public route serves whoever asks (the sign-in page must load to replace a bad cookie).
    if (!cookie.ok && route.access !== 'public') throw new AppError('BAD_REQUEST', cookie.reason);
    const caller = resolveCaller(
      {
        req: ctx.req,
        queryToken: route.queryToken === true ? (new URLSearchParams(ctx.querystring).get('token') ?? undefined) : undefined,
        cookie: cookie.ok ? cookie.value : undefined,
      },
      deps.credentials,
    );
    (ctx.state as { caller: Caller }).caller = caller;
    const clientKey = ctx.req.socket.remoteAddress ?? 'unknown';
    if (caller.failed && !caller.local && deps.failures) {
      const delay = deps.failures.delayFor(clientKey);
      deps.failures.recordFailure(clientKey);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    } else if (hasKey(caller)) {
      deps.failures?.recordSuccess(clientKey);
    }
    if (!isAllowed(route, caller, deps.loopbackReads)) {
      throw new AppError('AUTH_REQUIRED', caller.failed ? 'invalid or expired credential' : 'sign in or present the owner token');
    }
    // Loopback trust is for programs on this machine. A browser here sends any site's requests
    // from 127.0.0.1 with a loopback Host too, and a form or a text/plain fetch needs no CORS
    // preflight: without this any page the owner opened could switch face tracking or the turn
    // toward speech on, and the head would follow. Such a page names itself in Origin.
    if (route.access !== 'public' && caller.kind === 'loopback' && sentByForeignPage(ctx, deps)) {
      throw new AppError('ORIGIN_REFUSED', 'a page of another origin may not use this machine\'s loopback trust');
    }
    if (route.control) deps.controlGuard?.(ctx, caller, route);
    // SameSite=Lax keeps the session cookie from other sites only: another port of this host (a
    // second web service on the robot's computer, a dev server in the owner's browser) is the same
    // site, and its form or text/plain fetch needs no CORS preflight. Without this such a page
    // could start a chat turn whose tools move the head, or switch tracking on, with the owner's
    // cookie. Reads stay open (the page cannot read their answers); no Origin means no page.
    // After the control guard, so control routes keep their order: rate limit, then origin.
    if (caller.viaCookie && !READ_METHODS.has(ctx.method) && sentByForeignPage(ctx, deps)) {
      throw new AppError('ORIGIN_REFUSED', 'a page of another origin may not use the session cookie to change anything');
    }
    // Reads send no Origin when a page embeds them: `<img src=/api/stream>` on any site the owner
    // opens on this machine (loopback trust), or on another port of the robot's host (the cookie),
    // would hold a camera stream slot and the decoder. The browser's Fetch Metadata names the page.
    if (route.access !== 'public' && (caller.viaCookie || caller.kind === 'loopback') && embeddedByForeignPage(ctx, deps)) {
      throw new AppError('ORIGIN_REFUSED', 'a page of another origin may not use the session cookie or this machine\'s loopback trust');
    }
    await next();
  };
}
