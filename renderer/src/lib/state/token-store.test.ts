import { describe, expect, it } from 'vitest';
import { createTokenStore, TOKEN_KEY, type KeyValueStorage } from './token-store.ts';

function mapStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const throwing: KeyValueStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('createTokenStore', () => {
  it('keeps the token under cockpit.token', () => {
    const storage = mapStorage();
    const store = createTokenStore(storage);
    store.write('abc');
    expect(storage.map.get(TOKEN_KEY)).toBe('abc');
    expect(createTokenStore(storage).read()).toBe('abc');
    store.clear();
    expect(store.read()).toBeNull();
  });

  it.each([
    ['no storage', null],
    ['storage that throws', throwing],
  ])('falls back to memory with %s', (_name, storage) => {
    const store = createTokenStore(storage);
    expect(store.read()).toBeNull();
    store.write('abc');
    expect(store.read()).toBe('abc');
    store.clear();
    expect(store.read()).toBeNull();
  });
});
