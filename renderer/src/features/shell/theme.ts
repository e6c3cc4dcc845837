/**
 * Light or dark: the person's choice, kept in this browser, or the system's
 * (`prefers-color-scheme`) when they made none. The theme showing is a `data-theme` attribute on
 * the root element, which app.css reads (one palette per theme, in one place); it is applied
 * before the dashboard mounts, so a page never flashes in the other theme.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'cockpit.theme';

export function storedTheme(storage: Pick<Storage, 'getItem'> = localStorage): ThemeChoice {
  try {
    const value = storage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    // Storage refused (a private window with storage off): follow the system.
    return 'system';
  }
}

export function storeTheme(choice: ThemeChoice, storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage): void {
  try {
    if (choice === 'system') storage.removeItem(KEY);
    else storage.setItem(KEY, choice);
  } catch {
    // Not kept across reloads then; the theme still changes for this page.
  }
}

export function systemPrefersLight(): boolean {
  return window.matchMedia('(prefers-color-scheme: light)').matches;
}

export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = shownTheme(choice, systemPrefersLight());
}

/** The theme showing now: the choice, or the system's when the choice is `system`. */
export function shownTheme(choice: ThemeChoice, systemPrefersLight: boolean): 'light' | 'dark' {
  return choice === 'system' ? (systemPrefersLight ? 'light' : 'dark') : choice;
}
