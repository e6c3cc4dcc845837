/**
 * The signed-in session: the owner token, why the sign-in card is showing when there is none,
 * and the HTTP client that carries the token. Provided once in App.svelte, read with useSession().
 */
import { getContext, setContext } from 'svelte';
import { createHttpClient, type HttpClient } from '../api/http-client.ts';
import { browserStorage, createTokenStore, type TokenStore } from './token-store.ts';
import { extractToken } from './token-url.ts';

/** Why the dashboard asks for a token: none yet, the cockpit refused it, or the person left. */
export type SignInReason = 'missing' | 'refused' | 'signed-out';

export class Session {
  token = $state<string | null>(null);
  reason = $state<SignInReason>('missing');
  readonly http: HttpClient;
  readonly #store: TokenStore;

  constructor(store: TokenStore) {
    this.#store = store;
    this.token = store.read();
    this.http = createHttpClient({ getToken: () => this.token, onUnauthorized: () => this.signOut('refused') });
  }

  signIn(token: string): void {
    this.#store.write(token);
    this.token = token;
  }

  signOut(reason: SignInReason): void {
    this.#store.clear();
    this.token = null;
    this.reason = reason;
  }
}

const SESSION = Symbol('session');

/** Takes a token from the address (then removes it from there), else the stored one. */
export function provideSession(): Session {
  const store = createTokenStore(browserStorage());
  const { token, cleanedUrl } = extractToken(window.location.href);
  if (cleanedUrl !== null) window.history.replaceState(window.history.state, '', cleanedUrl);
  if (token !== null) store.write(token);
  const session = new Session(store);
  setContext(SESSION, session);
  return session;
}

export function useSession(): Session {
  const session = getContext<Session | undefined>(SESSION);
  if (!session) throw new Error('useSession() needs provideSession() in an ancestor (App.svelte)');
  return session;
}
