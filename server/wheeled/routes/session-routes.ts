/**
 * The wheeled server's passkey ceremony (docs/contract.md, "Authentication"): the eight
 * handshake routes of the desktop server, where completing a registration or a login also hands the
 * browser a short-lived HS256 JWT, plus the refresh that renews it while the passkey session
 * lives. Five routes are the desktop server's own (server/auth/auth-routes.ts); the two completions and
 * logout are B's, because they issue or end the JWT and scope the session cookie.
 *
 * The session cookie is scoped to /api/auth/: the browser sends it only to the ceremony and to
 * the refresh, so on B the JWT (header or ?token=) is the credential of every other route.
 */
import type { Context } from 'koa';
import type { Access } from '../../auth/access.ts';
import { resolveRelyingParty } from '../../auth/relying-party.ts';
import { AppError, badRequest } from '../../errors.ts';
import { callerOf } from '../../http/access-gate.ts';
import { readSessionCookie } from '../../http/untrusted-input.ts';
import { SESSION_COOKIE } from '../../http/caller.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import type { TokenService } from '../auth/token-service.ts';

export const AUTH_COOKIE_PATH = '/api/auth/';

/** The desktop server's ceremony routes that B serves unchanged. */
const SHARED = new Set([
  'GET /api/auth/status',
  'POST /api/auth/register/begin',
  'POST /api/auth/login/begin',
  'GET /api/auth/credentials',
  'DELETE /api/auth/credentials/:cid',
]);

export interface SessionRouteDeps {
  access: Pick<Access, 'routes' | 'passkeys'>;
  tokens: Pick<TokenService, 'mintSessionToken' | 'endSession'>;
  config: { rpId: string | undefined; origin: string | undefined; sessionTtlSeconds: number };
}

async function challengeBody(ctx: Context): Promise<{ challengeId: string; response: unknown }> {
  const body = await readJsonBody(ctx);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object');
  const { challengeId, response } = body as Record<string, unknown>;
  if (typeof challengeId !== 'string' || challengeId === '' || challengeId.length > 256)
    throw badRequest('challengeId is required');
  return { challengeId, response };
}

export function sessionRoutes(deps: SessionRouteDeps): RouteSpec[] {
  const { passkeys } = deps.access;
  const relyingParty = (ctx: Context) =>
    resolveRelyingParty({
      rpId: deps.config.rpId,
      origin: deps.config.origin,
      host: ctx.get('host') || undefined,
      secure: ctx.secure,
    });
  const setCookie = (ctx: Context, value: string, maxAgeMs: number) =>
    ctx.cookies.set(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: AUTH_COOKIE_PATH,
      maxAge: maxAgeMs,
      overwrite: true,
    });
  const signedIn = async (
    ctx: Context,
    session: { id: string; key: string; expiresAt: number },
    credentialId: string,
  ) => {
    setCookie(ctx, session.id, deps.config.sessionTtlSeconds * 1000);
    const jwt = await deps.tokens.mintSessionToken({
      sessionKey: session.key,
      credentialId,
      sessionExpiresAt: session.expiresAt,
    });
    ctx.set('Cache-Control', 'no-store');
    return { token: jwt.token, tokenExpiresAt: jwt.expiresAt, sessionExpiresAt: session.expiresAt };
  };

  const own: RouteSpec[] = [
    {
      method: 'POST',
      path: '/api/auth/register/complete',
      access: 'public',
      summary: 'store the new passkey; answers {ok, credential, token (JWT), tokenExpiresAt, sessionExpiresAt}',
      async handler(ctx) {
        const { challengeId, response } = await challengeBody(ctx);
        const { credential, session } = await passkeys.registerComplete({
          challengeId,
          response,
          ...relyingParty(ctx),
        });
        ctx.body = { ok: true, credential, ...(await signedIn(ctx, session, credential.id)) };
      },
    },
    {
      method: 'POST',
      path: '/api/auth/login/complete',
      access: 'public',
      summary: 'verify the assertion; answers {ok, token (JWT), tokenExpiresAt, sessionExpiresAt}',
      async handler(ctx) {
        const { challengeId, response } = await challengeBody(ctx);
        const { session, credentialId } = await passkeys.loginComplete({ challengeId, response, ...relyingParty(ctx) });
        ctx.body = { ok: true, ...(await signedIn(ctx, session, credentialId)) };
      },
    },
    {
      method: 'POST',
      path: '/api/auth/logout',
      access: 'public',
      summary: 'end the passkey session: its JWTs stop working and its sockets close',
      async handler(ctx) {
        // The cookie, not the caller: the request carries the session's JWT too, which the caller prefers.
        const cookie = readSessionCookie(ctx.req.headers.cookie);
        if (cookie.ok && cookie.value) await passkeys.logout(cookie.value);
        const caller = callerOf(ctx);
        if (caller.kind === 'passkey' && caller.sessionKey) deps.tokens.endSession(caller.sessionKey);
        setCookie(ctx, '', 0);
        ctx.body = { ok: true };
      },
    },
    {
      method: 'POST',
      path: '/api/auth/refresh',
      access: 'key',
      summary:
        'a fresh JWT for a live passkey session (cookie or current JWT); {token, tokenExpiresAt, sessionExpiresAt}',
      async handler(ctx) {
        const caller = callerOf(ctx);
        if (caller.kind !== 'passkey' || !caller.sessionKey || !caller.credentialId || !caller.expiresAt)
          throw new AppError(
            'AUTH_FORBIDDEN',
            'only a passkey session is refreshed; service tokens carry their own lifetime',
          );
        const jwt = await deps.tokens.mintSessionToken({
          sessionKey: caller.sessionKey,
          credentialId: caller.credentialId,
          sessionExpiresAt: caller.expiresAt,
        });
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { ok: true, token: jwt.token, tokenExpiresAt: jwt.expiresAt, sessionExpiresAt: caller.expiresAt };
      },
    },
  ];
  const shared = deps.access.routes.filter((r) => SHARED.has(`${r.method} ${r.path}`));
  if (shared.length !== SHARED.size)
    throw new Error('the desktop server no longer provides every shared passkey route');
  return [...shared, ...own];
}
