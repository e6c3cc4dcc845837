/**
 * The signed-in session: the owner token or a passkey session, why the sign-in card is showing
 * when there is neither, and the HTTP client that carries the credential. Provided once in
 * App.svelte, read with useSession().
 *
 * A passkey session lives in an HttpOnly cookie the page cannot read, so whether one exists is
 * asked of the cockpit (GET /api/auth/status, public: it never answers 401, which would print a
 * console error for a state the page expects).
 */
import { getContext, setContext } from 'svelte';
import { getAuthStatus, hasKeySession, logout } from '../api/auth-api.ts';
import { createHttpClient, type HttpClient } from '../api/http-client.ts';
import { browserStorage, createTokenStore, type TokenStore } from './token-store.ts';
import { extractToken } from './token-url.ts';

/** Why the dashboard asks to sign in: no credential yet, the token was refused, the person left, or the passkey session ended. */
export type SignInReason = 'missing' | 'refused' | 'signed-out' | 'expired';

export class Session {
  token = $state<string | null>(null);
  /** The cockpit knows this browser by a passkey session cookie: no token is needed. */
  keySession = $state(false);
  /** True while the cockpit is being asked whether a passkey session exists. */
  checking = $state(false);
  reason = $state<SignInReason>('missing');
  readonly signedIn = $derived(this.token !== null || this.keySession);
  readonly http: HttpClient;
  readonly #store: TokenStore;

  constructor(store: TokenStore) {
    this.#store = store;
    this.token = store.read();
    this.http = createHttpClient({ getToken: () => this.token, onUnauthorized: () => this.lost() });
  }

  signIn(token: string): void {
    this.#store.write(token);
    this.token = token;
  }

  /** A passkey ceremony succeeded: the cockpit has set the session cookie. */
  signInWithPasskey(): void {
    this.keySession = true;
  }

  /** Asks the cockpit whether this browser already holds a passkey session (a reload, a new tab). */
  async check(): Promise<void> {
    if (this.token !== null) return;
    this.checking = true;
    const status = await getAuthStatus(this.http);
    this.checking = false;
    if (status.ok && hasKeySession(status.data)) this.keySession = true;
  }

  /** The cockpit refused the credential in use: the token is wrong, or the session ended. */
  lost(): void {
    if (!this.signedIn) return;
    this.#clear(this.token !== null ? 'refused' : 'expired');
  }

  /** Signs out on purpose: forgets the token and ends the passkey session, if any, on the cockpit. */
  async signOut(): Promise<void> {
    this.#clear('signed-out');
    // Public and harmless without a session; sent always, since a token user may hold a cookie too.
    await logout(this.http);
  }

  #clear(reason: SignInReason): void {
    this.#store.clear();
    this.token = null;
    this.keySession = false;
    this.reason = reason;
  }
}

const SESSION = Symbol('session');

/** Takes a token from the address (then removes it from there), else the stored one, else asks about a passkey session. */
export function provideSession(): Session {
  const store = createTokenStore(browserStorage());
  const { token, cleanedUrl } = extractToken(window.location.href);
  if (cleanedUrl !== null) window.history.replaceState(window.history.state, '', cleanedUrl);
  if (token !== null) store.write(token);
  const session = new Session(store);
  void session.check();
  setContext(SESSION, session);
  return session;
}

export function useSession(): Session {
  const session = getContext<Session | undefined>(SESSION);
  if (!session) throw new Error('useSession() needs provideSession() in an ancestor (App.svelte)');
  return session;
}
