/**
 * The operator's favourite moves, kept in this browser: the cockpit's quick bar plays them with
 * one press, the Moves page stars them. Before any choice a few short, friendly moves stand in.
 */
const KEY = 'cockpit.favouriteMoves';
export const DEFAULT_FAVOURITES: readonly string[] = ['yes1', 'no1', 'cheerful1', 'curious1'];
const MAX = 24;

export function readFavourites(storage: Pick<Storage, 'getItem'>): string[] {
  try {
    const raw = storage.getItem(KEY);
    if (raw === null) return [...DEFAULT_FAVOURITES];
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [...DEFAULT_FAVOURITES];
    return parsed.filter((name): name is string => typeof name === 'string' && name.length <= 100).slice(0, MAX);
  } catch {
    return [...DEFAULT_FAVOURITES];
  }
}

export function writeFavourites(names: readonly string[], storage: Pick<Storage, 'setItem'>): void {
  try {
    storage.setItem(KEY, JSON.stringify(names.slice(0, MAX)));
  } catch {
    // Storage refused: the favourites last for this page only.
  }
}

/** The list with `name` added at the end, or taken out when it was there. */
export function toggled(names: readonly string[], name: string): string[] {
  return names.includes(name) ? names.filter((n) => n !== name) : [...names, name].slice(-MAX);
}
