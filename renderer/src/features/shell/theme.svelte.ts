/** The theme as reactive state: the stored choice and what the system prefers, followed live. */
import { getContext, setContext } from 'svelte';
import { applyTheme, shownTheme, storedTheme, storeTheme, type ThemeChoice } from './theme.ts';

export class Theme {
  choice = $state<ThemeChoice>(storedTheme());
  #prefersLight = $state(false);
  readonly shown = $derived(shownTheme(this.choice, this.#prefersLight));

  constructor() {
    $effect(() => {
      const query = window.matchMedia('(prefers-color-scheme: light)');
      const read = () => {
        this.#prefersLight = query.matches;
        applyTheme(this.choice);
      };
      read();
      query.addEventListener('change', read);
      return () => query.removeEventListener('change', read);
    });
  }

  choose(choice: ThemeChoice): void {
    this.choice = choice;
    storeTheme(choice);
    applyTheme(choice);
  }

  /** The header's switch: to the other theme than the one showing. */
  toggle(): void {
    this.choose(this.shown === 'dark' ? 'light' : 'dark');
  }
}

const KEY = Symbol('theme');

/** Made once by the dashboard's root; the header's switch and the settings share it. */
export function provideTheme(): Theme {
  return setContext(KEY, new Theme());
}

export function useTheme(): Theme {
  const theme = getContext<Theme | undefined>(KEY);
  if (!theme) throw new Error('useTheme() needs provideTheme() in a parent component');
  return theme;
}
