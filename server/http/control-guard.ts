/**
 * The two checks control routes add after auth, in this order (docs/contract.md, "Control
 * pipeline"): a per-client sliding one-second rate limit, then the same-origin check. Scripts
 * with the bearer may omit Origin; browsers with a cookie may not (cross-site requests carry
 * cookies, not bearer headers).
 */
import type { Context } from 'koa';
import { checkOrigin } from './origin-check.ts';
import type { RateLimiter } from './rate-limit.ts';
import { AppError } from '../errors.ts';
import type { Caller } from './caller.ts';
import type { RouteSpec } from './route-table.ts';

export interface ControlGuardOptions {
  limiter: RateLimiter;
  /** ROBOT_ORIGIN, when the dashboard is reached through a name the Host header does not show. */
  allowedOrigins: string[];
  limit: number;
}

/** A client is its address plus the credential it holds: two browsers on one host are two clients. */
export function clientKey(ctx: Context, caller: Caller): string {
  const who = caller.sessionKey ?? caller.kind;
  return `${ctx.req.socket.remoteAddress ?? 'unknown'}|${who}`;
}

export function createControlGuard(options: ControlGuardOptions): (ctx: Context, caller: Caller, route: RouteSpec) => void {
  return function guardControl(ctx, caller, route) {
    // STOP is exempt from the limit (route-table.ts, safetyStop) and is not counted against it.
    const decision = route.safetyStop ? { ok: true as const } : options.limiter.check(clientKey(ctx, caller));
    if (!decision.ok) {
      throw new AppError('RATE_LIMITED', `rate limit ${options.limit}/s`, {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
    const origin = checkOrigin({
      origin: ctx.get('origin') || undefined,
      host: ctx.get('host') || undefined,
      secure: ctx.secure,
      allowedOrigins: options.allowedOrigins,
      viaBearer: caller.viaBearer,
    });
    if (!origin.ok) throw new AppError('ORIGIN_REFUSED', origin.reason);
  };
}
