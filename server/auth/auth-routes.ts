/**
 * The passkey handshake routes (docs/contract.md, "Routes"): reachable without a key,
 * owner-only rules enforced here. Shared by the desktop server and the wheeled server. Bodies are this project's
 * design, since the spec leaves them open: begin answers `{challengeId, options}` and complete
 * takes `{challengeId, response}`.
 */
import type { Context } from 'koa';
import type { AuthStatus, Pairing, PasskeyEnrolled, PasskeySignedIn } from '../contract/auth.ts';
import { AppError, badRequest } from '../errors.ts';
import { callerOf } from '../http/access-gate.ts';
import { hasKey, SESSION_COOKIE, type Caller } from '../http/caller.ts';
import { readSessionCookie } from '../http/untrusted-input.ts';
import { readJsonBody } from '../http/json-body.ts';
import type { RouteSpec } from '../http/route-table.ts';
import type { PairingCodes } from './pairing.ts';
import type { PasskeyService } from './passkeys.ts';
import { resolveRelyingParty } from './relying-party.ts';

export interface AuthRouteDeps {
  passkeys: PasskeyService;
  pairing: PairingCodes;
  rpId: string | undefined;
  origin: string | undefined;
  sessionTtlSeconds: number;
  /** The address a phone should open to pair (the HTTPS LAN URL), if known. */
  pairingBaseUrl?: () => string | undefined;
}

const optionalString = (body: Record<string, unknown>, field: string, max = 256): string | undefined => {
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > max) throw badRequest(`${field} must be a string of at most ${max} characters`);
  return value;
};

async function objectBody(ctx: Context): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object');
  return body as Record<string, unknown>;
}

function requireOwner(caller: Caller): void {
  if (!hasKey(caller)) throw new AppError('AUTH_REQUIRED', 'only the owner may manage passkeys');
}

/** Raw IP hosts cannot hold passkeys: browsers refuse an IP address as the relying party. */
export function isIpHost(host: string): boolean {
  const name = host.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.includes(':');
}

export function authRoutes(deps: AuthRouteDeps): RouteSpec[] {
  const relyingParty = (ctx: Context) =>
    resolveRelyingParty({ rpId: deps.rpId, origin: deps.origin, host: ctx.get('host') || undefined, secure: ctx.secure });

  const setSessionCookie = (ctx: Context, id: string) =>
    ctx.cookies.set(SESSION_COOKIE, id, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      maxAge: deps.sessionTtlSeconds * 1000,
      overwrite: true,
    });

  return [
    {
      method: 'GET',
      path: '/api/auth/status',
      access: 'public',
      summary: 'who the caller is and whether first-use enrolment is open',
      handler(ctx) {
        const caller = callerOf(ctx);
        const host = ctx.get('host');
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          // hasKey is false for `system` (the robot's own actions), which never arrives as a request.
          who:
            caller.kind === 'loopback'
              ? 'loopback'
              : hasKey(caller) && caller.kind !== 'system'
                ? caller.kind
                : 'anonymous',
          ...deps.passkeys.status({ owner: hasKey(caller) }),
          sessionExpiresAt: caller.expiresAt ?? null,
          secure: ctx.secure,
          ipHost: isIpHost(host),
        } satisfies AuthStatus;
      },
    },
    {
      method: 'POST',
      path: '/api/auth/register/begin',
      access: 'public',
      summary: 'registration options; {label?, enrolToken?, pairingCode?}',
      async handler(ctx) {
        const body = await objectBody(ctx);
        const rp = relyingParty(ctx);
        ctx.body = await deps.passkeys.registerBegin({
          ...rp,
          caller: { owner: hasKey(callerOf(ctx)) },
          client: ctx.req.socket.remoteAddress,
          label: optionalString(body, 'label', 64),
          enrolToken: optionalString(body, 'enrolToken'),
          pairingCode: optionalString(body, 'pairingCode'),
        });
      },
    },
    {
      method: 'POST',
      path: '/api/auth/register/complete',
      access: 'public',
      summary: 'store the new passkey and start a session; {challengeId, response}',
      async handler(ctx) {
        const body = await objectBody(ctx);
        const challengeId = optionalString(body, 'challengeId');
        if (!challengeId) throw badRequest('challengeId is required');
        const { credential, session } = await deps.passkeys.registerComplete({ challengeId, response: body['response'], ...relyingParty(ctx) });
        setSessionCookie(ctx, session.id);
        ctx.body = { ok: true, credential, sessionExpiresAt: session.expiresAt } satisfies PasskeyEnrolled;
      },
    },
    {
      method: 'POST',
      path: '/api/auth/login/begin',
      access: 'public',
      summary: 'assertion options',
      async handler(ctx) {
        ctx.body = await deps.passkeys.loginBegin({ rpId: relyingParty(ctx).rpId, client: ctx.req.socket.remoteAddress });
      },
    },
    {
      method: 'POST',
      path: '/api/auth/login/complete',
      access: 'public',
      summary: 'verify the assertion and set the session cookie; {challengeId, response}',
      async handler(ctx) {
        const body = await objectBody(ctx);
        const challengeId = optionalString(body, 'challengeId');
        if (!challengeId) throw badRequest('challengeId is required');
        const { session } = await deps.passkeys.loginComplete({ challengeId, response: body['response'], ...relyingParty(ctx) });
        setSessionCookie(ctx, session.id);
        ctx.body = { ok: true, sessionExpiresAt: session.expiresAt } satisfies PasskeySignedIn;
      },
    },
    {
      method: 'POST',
      path: '/api/auth/logout',
      access: 'public',
      summary: 'end the session and drop its cookie',
      async handler(ctx) {
        // The cookie, not the caller: a request may carry a bearer too, which the caller prefers.
        const cookie = readSessionCookie(ctx.req.headers.cookie);
        if (cookie.ok && cookie.value) await deps.passkeys.logout(cookie.value);
        ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: ctx.secure, maxAge: 0 });
        ctx.body = { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/api/auth/credentials',
      access: 'public',
      summary: 'enrolled passkeys (owner only)',
      handler(ctx) {
        requireOwner(callerOf(ctx));
        ctx.body = { credentials: deps.passkeys.listCredentials() };
      },
    },
    {
      method: 'DELETE',
      path: '/api/auth/credentials/:cid',
      access: 'public',
      summary: 'remove a passkey and end its sessions (owner only)',
      async handler(ctx) {
        requireOwner(callerOf(ctx));
        await deps.passkeys.deleteCredential(String(ctx.params['cid']));
        ctx.body = { ok: true };
      },
    },
    {
      method: 'PUT',
      path: '/api/console/auth/credentials/:cid',
      access: 'key',
      summary: 'rename a passkey; {label}',
      async handler(ctx) {
        const label = optionalString(await objectBody(ctx), 'label', 64);
        if (!label) throw badRequest('label is required');
        ctx.body = { credential: await deps.passkeys.renameCredential(String(ctx.params['cid']), label) };
      },
    },
    {
      method: 'POST',
      path: '/api/console/auth/pairing',
      access: 'key',
      summary: 'a one-time pairing link (5 minutes) for a phone to enrol its own passkey',
      handler(ctx) {
        const { code, expiresAt } = deps.pairing.issue();
        const base = deps.pairingBaseUrl?.() ?? ctx.origin;
        ctx.body = { code, expiresAt, url: `${base}/?pair=${encodeURIComponent(code)}` } satisfies Pairing;
      },
    },
  ];
}
