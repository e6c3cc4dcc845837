/**
 * The wheeled server's bearer tokens in one place (docs/contract.md, "Authentication"): the short
 * session JWT a passkey login hands the browser, long-lived service tokens for scripts and
 * sibling robots, and the synchronous check the access gate runs on every bearer.
 */
import { randomUUID } from 'node:crypto';
import { badRequest } from '../../errors.ts';
import type { BearerInfo } from '../../http/caller.ts';
import type { Log } from '../../log.ts';
import { ensureJwtSecret } from './jwt-secret.ts';
import { signToken, verifyToken } from './jwt.ts';
import { createServiceTokenRegistry, type ServiceTokenRecord } from './service-tokens.ts';

/** Browser tokens live 15 minutes; the dashboard refreshes them while the passkey session lives. */
export const SESSION_TOKEN_TTL_SECONDS = 900;
export const SERVICE_TTL_MIN_SECONDS = 60;
export const SERVICE_TTL_MAX_SECONDS = 10 * 365 * 86_400;
/** Socket and rate-limit key of a service token's caller; revoking closes its sockets. */
export const SERVICE_KEY_PREFIX = 'service:';
/** The owner of a passkey session token. */
export const OWNER_SUBJECT = 'owner';

const SUBJECT = /^[A-Za-z0-9._:@-]{1,64}$/;

export interface MintServiceInput {
  sub: string;
  name: string;
  ttlSeconds: number;
}

export interface MintedServiceToken {
  token: string;
  id: string;
  sub: string;
  name: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionTokenInput {
  sessionKey: string;
  credentialId: string;
  /** Epoch ms when the passkey session ends. */
  sessionExpiresAt: number;
}

export interface ServiceTokenView extends Omit<ServiceTokenRecord, 'revokedAt'> {
  revokedAt: number | null;
  state: 'active' | 'expired' | 'revoked';
}

export interface TokenService {
  mintSessionToken(input: SessionTokenInput): Promise<{ token: string; expiresAt: number }>;
  mintServiceToken(input: MintServiceInput): Promise<MintedServiceToken>;
  listServiceTokens(): Promise<ServiceTokenView[]>;
  /** NOT_FOUND-free: undefined when the id is unknown. */
  revokeServiceToken(id: string): Promise<ServiceTokenView | undefined>;
  /** A passkey session ended (logout, revoked, expired): its tokens stop at once. */
  endSession(sessionKey: string, endsAt?: number): void;
  /** The gate's check (server/http/caller.ts validateBearer). */
  verify(token: string): BearerInfo | undefined;
}

/** Edge validation of a mint request, shared by the console route and `mint-token`. */
export function checkMintInput(input: { sub?: unknown; name?: unknown; ttlSeconds?: unknown }): MintServiceInput {
  const { sub, name, ttlSeconds } = input;
  if (typeof sub !== 'string' || !SUBJECT.test(sub)) throw badRequest('sub must be 1-64 letters, digits or . _ : @ -');
  // eslint-disable-next-line no-control-regex
  if (typeof name !== 'string' || name.trim() === '' || name.length > 64 || /[\u0000-\u001f\u007f]/.test(name))
    throw badRequest('name must be 1-64 printable characters');
  if (
    typeof ttlSeconds !== 'number' ||
    !Number.isInteger(ttlSeconds) ||
    ttlSeconds < SERVICE_TTL_MIN_SECONDS ||
    ttlSeconds > SERVICE_TTL_MAX_SECONDS
  )
    throw badRequest(`ttlSeconds must be an integer from ${SERVICE_TTL_MIN_SECONDS} to ${SERVICE_TTL_MAX_SECONDS}`);
  return { sub, name: name.trim(), ttlSeconds };
}

export async function createTokenService(options: {
  dataDir: string;
  log: Log;
  now?: () => number;
  /**
   * Whether the passkey session a session token names still lives. Sessions are persisted, so a
   * logout survives a restart; without this a logged-out token would pass until its expiry.
   */
  sessionLive?: (sessionKey: string) => boolean;
}): Promise<TokenService> {
  const now = options.now ?? Date.now;
  const secret = await ensureJwtSecret(options.dataDir);
  const registry = createServiceTokenRegistry({ dataDir: options.dataDir, log: options.log, now });
  await registry.load();
  /** Ended passkey sessions, until their last token could have expired. */
  const ended = new Map<string, number>();
  const seconds = (ms: number) => Math.floor(ms / 1000);

  const view = (r: ServiceTokenRecord): ServiceTokenView => ({
    ...r,
    revokedAt: r.revokedAt ?? null,
    state: r.revokedAt !== undefined ? 'revoked' : r.expiresAt <= now() ? 'expired' : 'active',
  });

  return {
    async mintSessionToken({ sessionKey, credentialId, sessionExpiresAt }) {
      const iat = seconds(now());
      const sexp = seconds(sessionExpiresAt);
      const exp = Math.min(iat + SESSION_TOKEN_TTL_SECONDS, sexp);
      const claims = {
        typ: 'session' as const,
        sub: OWNER_SUBJECT,
        sid: sessionKey,
        cid: credentialId,
        sexp,
        jti: randomUUID(),
        iat,
        exp,
      };
      return { token: await signToken(secret, claims), expiresAt: exp * 1000 };
    },
    async mintServiceToken(input) {
      const { sub, name, ttlSeconds } = checkMintInput(input);
      const id = randomUUID();
      const iat = seconds(now());
      const exp = iat + ttlSeconds;
      const token = await signToken(secret, { typ: 'service', sub, name, jti: id, iat, exp });
      const record = { id, sub, name, createdAt: iat * 1000, expiresAt: exp * 1000 };
      await registry.add(record);
      options.log.info('service token minted', { id, sub, name, expiresAt: new Date(record.expiresAt).toISOString() });
      return { token, ...record };
    },
    async listServiceTokens() {
      return (await registry.load()).map(view).sort((a, b) => b.createdAt - a.createdAt);
    },
    async revokeServiceToken(id) {
      const record = await registry.revoke(id, now());
      if (record) options.log.info('service token revoked', { id, sub: record.sub });
      return record ? view(record) : undefined;
    },
    endSession(sessionKey, endsAt = now() + SESSION_TOKEN_TTL_SECONDS * 1000) {
      const at = now();
      for (const [key, until] of ended) if (until <= at) ended.delete(key);
      ended.set(sessionKey, endsAt);
    },
    verify(token) {
      const claims = verifyToken(secret, token, seconds(now()));
      if (!claims) return undefined;
      if (claims.typ === 'session') {
        if (ended.has(claims.sid) || options.sessionLive?.(claims.sid) === false) return undefined;
        // Sockets opened with this token live as long as the passkey session, not the token.
        return {
          kind: 'passkey',
          sessionKey: claims.sid,
          credentialId: claims.cid,
          expiresAt: claims.sexp * 1000,
          subject: claims.sub,
        };
      }
      if (registry.isRevoked(claims.jti)) return undefined;
      return {
        kind: 'token',
        sessionKey: `${SERVICE_KEY_PREFIX}${claims.jti}`,
        expiresAt: claims.exp * 1000,
        subject: claims.sub,
      };
    },
  };
}
