/**
 * The dashboard's console for service tokens (Authentication "the wheeled server", rule 2): mint one for a
 * subject, a name and a lifetime (the token is shown once), list them, revoke one (its sockets
 * close at once). A service token cannot manage service tokens: a leaked script token must not
 * be able to mint itself a successor.
 */
import type { Context } from 'koa';
import { AppError, badRequest } from '../../errors.ts';
import { callerOf } from '../../http/access-gate.ts';
import { readJsonBody } from '../../http/json-body.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { checkMintInput, SERVICE_KEY_PREFIX, type TokenService } from '../auth/token-service.ts';

export interface TokenRouteDeps {
  tokens: Pick<TokenService, 'mintServiceToken' | 'listServiceTokens' | 'revokeServiceToken'>;
  /** Ends the sockets held with a revoked token (the hub's closeSession). */
  onRevoked: (sessionKey: string) => void;
}

function ownerOnly(ctx: Context): void {
  if (callerOf(ctx).sessionKey?.startsWith(SERVICE_KEY_PREFIX))
    throw new AppError('AUTH_FORBIDDEN', 'service tokens cannot manage service tokens; sign in with a passkey');
}

export function tokenRoutes(deps: TokenRouteDeps): RouteSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/console/tokens',
      access: 'key',
      summary: 'service tokens: {tokens: [{id, sub, name, createdAt, expiresAt, revokedAt, state}]}; never the token',
      async handler(ctx) {
        ownerOnly(ctx);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { tokens: await deps.tokens.listServiceTokens() };
      },
    },
    {
      method: 'POST',
      path: '/api/console/tokens',
      access: 'key',
      control: true,
      summary: 'mint a service token: {sub, name, ttlSeconds (60-315360000)}; answers the token once',
      async handler(ctx) {
        ownerOnly(ctx);
        const body = await readJsonBody(ctx);
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw badRequest('body must be a JSON object');
        const input = checkMintInput(body as Record<string, unknown>);
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 201;
        ctx.body = await deps.tokens.mintServiceToken(input);
      },
    },
    {
      method: 'DELETE',
      path: '/api/console/tokens/:id',
      access: 'key',
      control: true,
      summary: 'revoke a service token; its sockets close with 4401',
      async handler(ctx) {
        ownerOnly(ctx);
        const id = String(ctx.params['id']);
        const revoked = await deps.tokens.revokeServiceToken(id);
        if (!revoked) throw new AppError('NOT_FOUND', `no service token ${id}`);
        deps.onRevoked(`${SERVICE_KEY_PREFIX}${id}`);
        ctx.body = { ok: true, token: revoked };
      },
    },
  ];
}
