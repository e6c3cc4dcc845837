/** Where the owner token is kept between visits: localStorage under `cockpit.token`. */
export const TOKEN_KEY = 'cockpit.token';

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface TokenStore {
  read(): string | null;
  write(token: string): void;
  clear(): void;
}

/**
 * Storage can be missing or throw (private windows, storage disabled by policy). The dashboard
 * then still works for this visit, keeping the token in memory only.
 */
export function createTokenStore(storage: KeyValueStorage | null): TokenStore {
  let memory: string | null = null;
  const attempt = <T>(action: (s: KeyValueStorage) => T): T | undefined => {
    if (!storage) return undefined;
    try {
      return action(storage);
    } catch {
      return undefined;
    }
  };
  return {
    read() {
      const stored = attempt((s) => s.getItem(TOKEN_KEY));
      return stored === undefined || stored === null || stored === '' ? memory : stored;
    },
    write(token) {
      memory = token;
      attempt((s) => s.setItem(TOKEN_KEY, token));
    },
    clear() {
      memory = null;
      attempt((s) => s.removeItem(TOKEN_KEY));
    },
  };
}

/** The page's localStorage, or null where merely touching it throws. */
export function browserStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
