/**
 * The wheeled dashboard's session (server/wheeled/README-wheeled.md, "Authentication"): a short
 * HS256 JWT from a passkey ceremony, kept in sessionStorage for this tab and refreshed before it
 * runs out; after a reload it is refreshed from the passkey session cookie, which the browser
 * sends only to /api/auth/*. A pasted service or owner token works too (no refresh). Asking
 * first with the public /api/auth/status keeps an expected "not signed in" from printing a 401.
 */
import { getContext, setContext } from 'svelte';
import type { SessionTokenAnswer } from '../../../../server/contract/wheeled.ts';
import { getAuthStatus } from '../../lib/api/auth-api.ts';
import { createHttpClient, type HttpClient } from '../../lib/api/http-client.ts';
import { enrolPasskey, signInWithPasskey } from '../../lib/api/passkey-ceremony.ts';
import { refreshToken } from './wheeled-api.ts';

export const JWT_KEY = 'cockpit.wheeled.jwt';
/** Refresh when this share of the token's life is left. */
const REFRESH_AT_LEFT = 0.25;

export type SignInReason = 'missing' | 'expired' | 'signed-out' | 'refused';

interface Stored {
  token: string;
  expiresAt: number | null;
}

export class WheeledSession {
  token = $state<string | null>(null);
  expiresAt = $state<number | null>(null);
  checking = $state(true);
  reason = $state<SignInReason>('missing');
  readonly http: HttpClient;
  readonly #storage: Storage | null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(storage: Storage | null) {
    this.#storage = storage;
    this.http = createHttpClient({ getToken: () => this.token, onUnauthorized: () => this.lost('expired') });
    const stored = this.#read();
    if (stored && (stored.expiresAt === null || stored.expiresAt > Date.now() + 5000))
      this.#adopt(stored.token, stored.expiresAt);
  }

  /** After a reload without a usable token: a live passkey session gets a fresh JWT silently. */
  async start(): Promise<void> {
    if (this.token === null) {
      const status = await getAuthStatus(this.http);
      if (status.ok && status.data.who === 'passkey') await this.refresh();
    }
    this.checking = false;
  }

  async refresh(): Promise<boolean> {
    // A pasted service or owner token has no passkey session behind it to renew from.
    if (this.token !== null && this.expiresAt === null) {
      this.lost('refused');
      return false;
    }
    const result = await refreshToken(this.http);
    if (result.ok) this.#adopt(result.data.token, result.data.tokenExpiresAt);
    else if (this.token !== null) this.lost('expired');
    return result.ok;
  }

  /** Creates a passkey (first use, or a signed-in owner adding one) or signs in with one. */
  async passkey(kind: 'enrol' | 'login', enrolToken?: string): Promise<string | null> {
    const result =
      kind === 'enrol'
        ? await enrolPasskey(this.http, enrolToken ? { enrolToken } : {})
        : await signInWithPasskey(this.http);
    if (!result.ok) return result.message;
    const answer = result.data as unknown as SessionTokenAnswer;
    this.#adopt(answer.token, answer.tokenExpiresAt);
    return null;
  }

  /** A pasted service token or owner token, checked before it is kept. */
  async useToken(token: string): Promise<string | null> {
    const check = await this.http.request('/api/state', { token });
    if (!check.ok) return check.status === 401 ? 'The robot does not accept this token.' : check.message;
    this.#adopt(token, null);
    return null;
  }

  lost(reason: SignInReason): void {
    if (this.token === null) return;
    this.#clear(reason);
  }

  /** Leaves the dashboard first (its sockets close quietly), then ends the session on the server. */
  async signOut(): Promise<void> {
    const token = this.token;
    this.#clear('signed-out');
    await this.http.request('/api/auth/logout', { method: 'POST', token: token ?? '' });
  }

  #adopt(token: string, expiresAt: number | null): void {
    this.token = token;
    this.expiresAt = expiresAt;
    this.#write({ token, expiresAt });
    clearTimeout(this.#timer);
    if (expiresAt !== null) {
      const left = expiresAt - Date.now();
      this.#timer = setTimeout(() => void this.refresh(), Math.max(1000, left * (1 - REFRESH_AT_LEFT)));
    }
  }

  #clear(reason: SignInReason): void {
    clearTimeout(this.#timer);
    this.token = null;
    this.expiresAt = null;
    this.reason = reason;
    this.#write(null);
  }

  #read(): Stored | null {
    try {
      const raw = this.#storage?.getItem(JWT_KEY);
      const value = raw ? (JSON.parse(raw) as Partial<Stored>) : null;
      return typeof value?.token === 'string'
        ? { token: value.token, expiresAt: typeof value.expiresAt === 'number' ? value.expiresAt : null }
        : null;
    } catch {
      return null;
    }
  }

  #write(value: Stored | null): void {
    try {
      if (value) this.#storage?.setItem(JWT_KEY, JSON.stringify(value));
      else this.#storage?.removeItem(JWT_KEY);
    } catch {
      // Storage disabled: the session lasts as long as the page.
    }
  }
}

const KEY = Symbol('wheeled-session');

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function provideWheeledSession(): WheeledSession {
  const session = new WheeledSession(sessionStore());
  void session.start();
  setContext(KEY, session);
  return session;
}

export function useWheeledSession(): WheeledSession {
  const session = getContext<WheeledSession | undefined>(KEY);
  if (!session) throw new Error('useWheeledSession() needs provideWheeledSession() in WheeledApp.svelte');
  return session;
}
