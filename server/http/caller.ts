/**
 * Who is asking. Resolved once per request and per socket, then put on ctx.state.caller
 * (never app.context). Order: owner bearer, passkey session cookie, then loopback
 * (cockpit-api.md, Authentication; reference-notes.md §4, "Gate").
 */
import type { IncomingMessage } from 'node:http';
import type { CredentialKind } from '../contract/ws.ts';
import { isLocalRequest } from '../auth/loopback.ts';
import { tokensEqual } from '../auth/owner-token.ts';

export interface Caller {
  /** The credential that authenticated the request; anonymous when none did. */
  kind: CredentialKind | 'anonymous';
  /** The request satisfies the loopback rule (peer, Host and no proxy headers). */
  local: boolean;
  /** A credential was presented and was wrong: counts towards the brute-force throttle. */
  failed: boolean;
  viaBearer: boolean;
  viaCookie: boolean;
  /** The session's cookie value (to log it out) and its non-secret key (to close its sockets). */
  sessionId?: string;
  sessionKey?: string;
  credentialId?: string;
  /** When the passkey session ends (epoch ms); sockets are closed then. */
  expiresAt?: number;
}

export interface SessionInfo {
  key: string;
  credentialId: string;
  expiresAt: number;
}

export interface CredentialSources {
  ownerToken: string;
  /** Looks up a passkey session by its cookie value. */
  validateSession(id: string): SessionInfo | undefined;
}

export const SESSION_COOKIE = 'cockpit_session';

export interface CallerInput {
  req: IncomingMessage;
  /** Whether `?token=` may stand in for the header on this route (images, streams, /ws). */
  queryTokenAllowed: boolean;
  query: URLSearchParams;
  cookie: string | undefined;
}

export function resolveCaller(input: CallerInput, creds: CredentialSources): Caller {
  const { req } = input;
  const local = isLocalRequest({ peer: req.socket.remoteAddress, host: req.headers.host, headers: req.headers });
  const base: Caller = { kind: 'anonymous', local, failed: false, viaBearer: false, viaCookie: false };
  const bearer = bearerOf(req.headers.authorization);
  const presented = bearer ?? (input.queryTokenAllowed ? (input.query.get('token') ?? undefined) : undefined);
  if (presented !== undefined) {
    if (tokensEqual(presented, creds.ownerToken)) return { ...base, kind: 'token', viaBearer: true };
    return { ...base, failed: true };
  }
  if (input.cookie) {
    const session = creds.validateSession(input.cookie);
    if (session) {
      return {
        ...base,
        kind: 'passkey',
        viaCookie: true,
        sessionId: input.cookie,
        sessionKey: session.key,
        credentialId: session.credentialId,
        expiresAt: session.expiresAt,
      };
    }
    return { ...base, failed: true };
  }
  return local ? { ...base, kind: 'loopback' } : base;
}

function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? (match[1] as string).trim() : '';
}

/** A caller holding a real key (token or passkey), as opposed to loopback trust. */
export function hasKey(caller: Caller): boolean {
  return caller.kind === 'token' || caller.kind === 'passkey' || caller.kind === 'local-window';
}
