import { describe, expect, it } from 'vitest';
import { shownTheme, storedTheme, storeTheme } from './theme.ts';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

describe('theme choice', () => {
  it('keeps light and dark, and forgets the choice for system', () => {
    const storage = memoryStorage();
    expect(storedTheme(storage)).toBe('system');
    storeTheme('light', storage);
    expect(storedTheme(storage)).toBe('light');
    storeTheme('dark', storage);
    expect(storedTheme(storage)).toBe('dark');
    storeTheme('system', storage);
    expect(storedTheme(storage)).toBe('system');
    expect(storage.length).toBe(0);
  });

  it('reads anything else as system, and survives a storage that throws', () => {
    const storage = memoryStorage();
    storage.setItem('cockpit.theme', 'purple');
    expect(storedTheme(storage)).toBe('system');
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(storedTheme(broken)).toBe('system');
  });

  it('shows the system theme only when no choice was made', () => {
    expect(shownTheme('system', true)).toBe('light');
    expect(shownTheme('system', false)).toBe('dark');
    expect(shownTheme('dark', true)).toBe('dark');
    expect(shownTheme('light', false)).toBe('light');
  });
});
