/**
 * The owner session of the desktop window: created server-side as credential
 * 'local-window', handed to the window as its `cockpit_session` cookie (never a token in the
 * address), renewed before it runs out while the app runs, and ended when the app quits.
 *
 * Renewal needs a reload: the dashboard's socket was admitted under the old session and the hub
 * closes it with 4401 when that session ends, which the dashboard takes as "signed out". A
 * reload makes every request and the socket carry the new cookie. So the reload waits for a
 * moment the window is not in use (late in the session's life), and happens regardless only
 * shortly before the end.
 */

/** A day: long enough that a renewal reload is rare, short enough that a leaked cookie dies. */
export const WINDOW_SESSION_TTL_SECONDS = 24 * 60 * 60;

export interface IssuedSession {
  /** The cookie value. */
  id: string;
  expiresAt: number;
}

/** The cookie the desktop server reads the session from (server/http/caller.ts SESSION_COOKIE). */
export const SESSION_COOKIE_NAME = 'cockpit_session';

/**
 * The cookie as Electron's session.cookies.set takes it. HttpOnly: the page never reads it.
 * No expiry date: a browser-session cookie is never written to the profile on disk, and the
 * server ends the session anyway. Lax, as the passkey login sets it.
 */
export function sessionCookie(origin: string, session: IssuedSession) {
  return { url: origin, name: SESSION_COOKIE_NAME, value: session.id, httpOnly: true, sameSite: 'lax' as const };
}

export type RenewalStep = { renew: true } | { renew: false; waitMs: number };

/** How often a busy window is looked at again once renewal is due. */
export const BUSY_RETRY_MS = 5 * 60_000;

/**
 * Whether to renew now. From three quarters of the lifetime on, renew as soon as the window is
 * not focused; in the last twentieth (at least a minute), renew even if it is.
 */
export function renewalStep(now: number, expiresAt: number, ttlMs: number, windowBusy: boolean): RenewalStep {
  const soft = expiresAt - ttlMs / 4;
  const hard = expiresAt - Math.max(ttlMs / 20, 60_000);
  if (now >= hard) return { renew: true };
  if (now < soft) return { renew: false, waitMs: soft - now };
  return windowBusy ? { renew: false, waitMs: Math.min(BUSY_RETRY_MS, hard - now) } : { renew: true };
}

export interface WindowSessionDeps {
  /** Cockpit.createLocalWindowSession. */
  create(ttlSeconds: number): Promise<IssuedSession>;
  /** Cockpit.access.sessions.destroy. */
  destroy(id: string): Promise<unknown>;
  /** Sets the cookie in the window's Electron session. */
  install(session: IssuedSession): Promise<void>;
  /** Reloads the dashboard so it runs under the installed cookie. */
  reload(): Promise<void>;
  /** The operator is using the window (visible and focused). */
  windowBusy(): boolean;
  onError(error: unknown): void;
  now?: () => number;
  ttlSeconds?: number;
  /** After a failed renewal, when to try again. */
  retryMs?: number;
}

export interface WindowSession {
  /** Creates and installs the first session; resolves once the cookie is in place. */
  start(): Promise<void>;
  /** Stops renewing and ends the session on the cockpit (logout). */
  stop(): Promise<void>;
}

export function createWindowSession(deps: WindowSessionDeps): WindowSession {
  const now = deps.now ?? Date.now;
  const ttlSeconds = deps.ttlSeconds ?? WINDOW_SESSION_TTL_SECONDS;
  let current: IssuedSession | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => void tick(), ms);
  };

  const issue = async (): Promise<IssuedSession> => {
    const session = await deps.create(ttlSeconds);
    await deps.install(session);
    return session;
  };

  async function tick(): Promise<void> {
    if (stopped || !current) return;
    const step = renewalStep(now(), current.expiresAt, ttlSeconds * 1000, deps.windowBusy());
    if (!step.renew) return schedule(step.waitMs);
    const old = current;
    let next: IssuedSession;
    try {
      next = await issue();
    } catch (err) {
      deps.onError(err);
      return schedule(deps.retryMs ?? 60_000);
    }
    // Quit while the new session was being made: stop() ended the old one, this ends the new.
    if (stopped) return void (await deps.destroy(next.id).catch(deps.onError));
    current = next;
    // The old session ends even if the reload failed: the cookie already names the new one.
    await deps.reload().catch(deps.onError);
    await deps.destroy(old.id).catch(deps.onError);
    schedule(0);
  }

  return {
    async start() {
      current = await issue();
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const ending = current;
      current = undefined;
      if (ending) await deps.destroy(ending.id);
    },
  };
}
