/**
 * The recorded-move library, fetched from the daemon once and cached: listing a dataset blocks
 * the daemon's event loop for seconds on a cold cache (docs/daemon.md, "Moves").
 */
import type { MoveEntry, MoveLibrary } from '../contract/motion.ts';
import { AppError } from '../errors.ts';
import { DANCES_DATASET, EMOTIONS_DATASET, type DaemonClient } from '../daemon/daemon-client.ts';
import type { MoveDurations } from './move-durations.ts';

const LIFECYCLE = new Set(['waiting', 'mini-deep-sleep', 'toc-toc-toc', 'wake-mini-up', 'sleep1', 'dying1']);

/** Families by the stem of the name (digits stripped). */
const FAMILY_OF: Record<string, string> = {
  amazed: 'joy',
  cheerful: 'joy',
  enthusiastic: 'joy',
  laughing: 'joy',
  proud: 'joy',
  success: 'joy',
  grateful: 'warmth',
  loving: 'warmth',
  welcoming: 'warmth',
  helpful: 'warmth',
  relief: 'warmth',
  serenity: 'warmth',
  calming: 'warmth',
  understanding: 'warmth',
  curious: 'curiosity',
  inquiring: 'curiosity',
  attentive: 'curiosity',
  thoughtful: 'curiosity',
  surprised: 'curiosity',
  come: 'curiosity',
  electric: 'curiosity',
  yes: 'answers',
  yes_sad: 'answers',
  no: 'answers',
  no_excited: 'answers',
  no_sad: 'answers',
  uncertain: 'answers',
  confused: 'answers',
  incomprehensible: 'answers',
  oops: 'answers',
  sad: 'sorrow',
  downcast: 'sorrow',
  lonely: 'sorrow',
  lost: 'sorrow',
  resigned: 'sorrow',
  exhausted: 'sorrow',
  tired: 'sorrow',
  boredom: 'sorrow',
  shy: 'sorrow',
  anxiety: 'fear',
  fear: 'fear',
  scared: 'fear',
  uncomfortable: 'fear',
  contempt: 'anger',
  disgusted: 'anger',
  displeased: 'anger',
  frustrated: 'anger',
  furious: 'anger',
  impatient: 'anger',
  irritated: 'anger',
  rage: 'anger',
  reprimand: 'anger',
  go_away: 'anger',
  indifferent: 'anger',
  dance: 'dance',
};

export function familyOf(name: string, dataset: string): string {
  if (dataset === DANCES_DATASET) return 'dance';
  if (LIFECYCLE.has(name)) return 'lifecycle';
  return FAMILY_OF[name.replace(/\d+$/, '')] ?? 'other';
}

export function groupMoves(lists: { dataset: string; names: string[] }[]): MoveLibrary {
  const moves: MoveEntry[] = [];
  const families: Record<string, string[]> = {};
  for (const { dataset, names } of lists) {
    for (const name of [...names].sort()) {
      const family = familyOf(name, dataset);
      moves.push({ name, dataset, family, lifecycle: LIFECYCLE.has(name), seconds: null });
      (families[family] ??= []).push(name);
    }
  }
  return { moves, families };
}

export interface MoveLibraryCache {
  /** The library, each move with its length as far as it is known now. */
  get(): Promise<MoveLibrary>;
  find(name: string): Promise<MoveEntry>;
  /** A whole play of `move` took `seconds` (robot-controls.ts measures it). */
  learnSeconds(move: MoveEntry, seconds: number): void;
}

/** The datasets the library lists, in the order the page shows them. */
export const MOVE_DATASETS = [EMOTIONS_DATASET, DANCES_DATASET] as const;

export function createMoveLibraryCache(daemon: DaemonClient, durations?: MoveDurations): MoveLibraryCache {
  let cached: Promise<MoveLibrary> | undefined;
  const listed = (): Promise<MoveLibrary> => {
    cached ??= Promise.all([
      ...MOVE_DATASETS.map(async (dataset) => ({ dataset, names: await daemon.listMoves(dataset) })),
    ]).then(async (lists) => {
      await durations?.load();
      return groupMoves(lists);
    });
    // A failed load is not cached: the next caller retries.
    cached.catch(() => (cached = undefined));
    return cached;
  };
  const withSeconds = (move: MoveEntry): MoveEntry =>
    durations ? { ...move, seconds: durations.seconds(move.dataset, move.name) } : move;
  return {
    async get() {
      const library = await listed();
      return { ...library, moves: library.moves.map(withSeconds) };
    },
    async find(name) {
      const move = (await listed()).moves.find((m) => m.name === name);
      if (!move) throw new AppError('MOVE_UNKNOWN', `no move named "${name}" in the library`);
      return withSeconds(move);
    },
    learnSeconds(move, seconds) {
      durations?.learn(move.dataset, move.name, seconds);
    },
  };
}
