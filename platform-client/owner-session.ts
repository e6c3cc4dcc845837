/**
 * The owner's session (or command-line) token, which the use_device tool needs to list the
 * owner's devices and relay to them (docs/platform.md, "Authentication").
 * It is owner-scoped and powerful, so it is kept like the device token (SecretStore, never in a
 * status or a log) and bound to the platform it was proved on: after the robot moves to another
 * platform the stored token is not sent anywhere. The host's environment may supply one for
 * its own environment identity instead.
 */
import { TOKEN_PATTERN } from './limits.ts';
import type { SecretStore } from './secret-store.ts';
import type { PlatformLog } from './types.ts';

/** Name of the secret that holds `{platformUrl, token}`. */
export const OWNER_SESSION_SECRET = 'platform-owner-session';

/** Checks a pasted token's shape: 8–512 printable characters, no spaces. */
export function isSessionTokenShape(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export interface OwnerSession {
  /** Reads the stored token (a corrupt record is set aside and reported). */
  load(): Promise<void>;
  /** The token to send to `platformUrl`, or null when none is bound to it. */
  tokenFor(platformUrl: string | null): string | null;
  /** Where the token for `platformUrl` comes from, for the status. */
  sourceFor(platformUrl: string | null): 'stored' | 'env' | null;
  save(platformUrl: string, token: string): Promise<void>;
  forget(): Promise<void>;
}

/** `env` is ROBOT_PLATFORM_SESSION_TOKEN with the environment's platform URL, or null. */
export function createOwnerSession(
  secrets: SecretStore,
  env: { platformUrl: string; token: string } | null,
  log: PlatformLog,
): OwnerSession {
  let stored: { platformUrl: string; token: string } | null = null;
  const pick = (platformUrl: string | null) => {
    if (platformUrl === null) return null;
    if (env?.platformUrl === platformUrl) return { ...env, source: 'env' as const };
    return stored?.platformUrl === platformUrl ? { ...stored, source: 'stored' as const } : null;
  };
  return {
    async load() {
      let raw: string | null;
      try {
        raw = await secrets.get(OWNER_SESSION_SECRET);
      } catch (error) {
        // Unreadable (a folder in the way, no permission, a failing disk): no session, and the console starts.
        log.error('stored owner session could not be read', { error: String(error) });
        return;
      }
      if (raw === null) return;
      try {
        const parsed = JSON.parse(raw) as { platformUrl?: unknown; token?: unknown };
        if (typeof parsed.platformUrl === 'string' && typeof parsed.token === 'string' && isSessionTokenShape(parsed.token)) {
          stored = { platformUrl: parsed.platformUrl, token: parsed.token };
          return;
        }
      } catch {
        // Falls through to setting it aside.
      }
      const aside = await secrets.setAside(OWNER_SESSION_SECRET).catch((error: unknown) => {
        log.error('stored owner session could not be set aside', { error: String(error) });
        return null;
      });
      log.error('stored owner session is unreadable; set aside', { aside });
    },
    tokenFor: (platformUrl) => pick(platformUrl)?.token ?? null,
    sourceFor: (platformUrl) => pick(platformUrl)?.source ?? null,
    async save(platformUrl, token) {
      await secrets.set(OWNER_SESSION_SECRET, JSON.stringify({ platformUrl, token }));
      stored = { platformUrl, token };
    },
    async forget() {
      await secrets.delete(OWNER_SESSION_SECRET);
      stored = null;
    },
  };
}
