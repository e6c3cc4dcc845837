/** The move library browser: families in a sensible order, and the search over names. */
import type { MoveEntry } from '../../../../server/contract/index.ts';

/** Feelings first, the way an operator reaches for them; lifecycle animations last. */
const FAMILY_ORDER = [
  'joy',
  'warmth',
  'curiosity',
  'answers',
  'sorrow',
  'fear',
  'anger',
  'dance',
  'other',
  'lifecycle',
];

export function familyOrder(families: Iterable<string>): string[] {
  const rank = (family: string) => {
    const index = FAMILY_ORDER.indexOf(family);
    return index === -1 ? FAMILY_ORDER.length - 1.5 : index;
  };
  return [...new Set(families)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** "no_excited2" reads as "no excited 2". */
export function moveLabel(name: string): string {
  return name
    .replace(/_/g, ' ')
    .replace(/(\D)(\d+)$/, '$1 $2')
    .trim();
}

/** Moves of the chosen family (null: all) whose name contains every word of the query. */
export function filterMoves(moves: readonly MoveEntry[], query: string, family: string | null): MoveEntry[] {
  const words = query.toLowerCase().replace(/_/g, ' ').split(/\s+/).filter(Boolean);
  return moves.filter((move) => {
    if (family !== null && move.family !== family) return false;
    const haystack = `${moveLabel(move.name)} ${move.family}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** A move's length for the list: "2.3 s", "12 s" from ten seconds up, "" while unknown. */
export function formatLength(seconds: number | null): string {
  if (seconds === null) return '';
  const tenths = Math.round(seconds * 10) / 10;
  return tenths >= 10 ? `${Math.round(seconds)} s` : `${tenths.toFixed(1)} s`;
}
