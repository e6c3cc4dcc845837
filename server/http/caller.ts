/**
 * Who is asking. Resolved once per request and per socket, then put on ctx.state.caller
 * (never app.context). Order: owner bearer, passkey session cookie, then loopback
 * (docs/contract.md, "Authentication"; docs/contract.md, "Gate").
 */
import type { IncomingMessage } from 'node:http';
import type { CredentialKind } from '../contract/ws.ts';
import { isLocalRequest } from './loopback.ts';
import { matchesSecret } from './secret-compare.ts';

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
  /** Who a signed service token names (the wheeled server): lets a route tell a persona from the owner. */
  subject?: string;
}

export interface SessionInfo {
  key: string;
  credentialId: string;
  expiresAt: number;
}

/** What a signed bearer token (the wheeled server's HS256 JWT) stands for once verified. */
export interface BearerInfo {
  kind: 'token' | 'passkey';
  sessionKey?: string;
  credentialId?: string;
  expiresAt?: number;
  subject?: string;
}

export interface CredentialSources {
  ownerToken: string;
  /** Looks up a passkey session by its cookie value. */
  validateSession(id: string): SessionInfo | undefined;
  /**
   * The wheeled server only: verifies a bearer that is not the owner token (a JWT from a passkey login or
   * a service token). Synchronous, because the gate and the socket upgrade decide in one step.
   * Absent on the desktop server, where any other bearer is refused.
   */
  validateBearer?(token: string): BearerInfo | undefined;
}

export const SESSION_COOKIE = 'cockpit_session';

/**
 * The credential id of the owner session the desktop app's main process gives its own window
 *: resolved as kind 'local-window', so receipts say "desktop window", not "passkey".
 * Passkey ids are base64url of authenticator-chosen bytes, and a passkey session already holds
 * owner rights, so a passkey that happened to carry this id would gain nothing.
 */
export const LOCAL_WINDOW_CREDENTIAL = 'local-window';

export interface CallerInput {
  req: IncomingMessage;
  /**
   * The `?token=` value, given only on routes where it may stand in for the header (images,
   * streams, /ws); every other route passes undefined and never parses its query.
   */
  queryToken: string | undefined;
  cookie: string | undefined;
}

export function resolveCaller(input: CallerInput, creds: CredentialSources): Caller {
  const { req } = input;
  const local = isLocalRequest({ peer: req.socket.remoteAddress, host: req.headers.host, headers: req.headers });
  const base: Caller = { kind: 'anonymous', local, failed: false, viaBearer: false, viaCookie: false };
  const bearer = bearerOf(req.headers.authorization);
  const presented = bearer ?? input.queryToken;
  if (presented !== undefined) {
    if (matchesSecret(presented, creds.ownerToken)) return { ...base, kind: 'token', viaBearer: true };
    const signed = creds.validateBearer?.(presented);
    if (signed) return { ...base, ...signed, viaBearer: true };
    return { ...base, failed: true };
  }
  if (input.cookie) {
    const session = creds.validateSession(input.cookie);
    if (session) {
      return {
        ...base,
        kind: session.credentialId === LOCAL_WINDOW_CREDENTIAL ? 'local-window' : 'passkey',
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
