/**
 * The recorded-move library, fetched from the daemon once and cached: listing a dataset blocks
 * the daemon's event loop for seconds on a cold cache (docs/daemon.md, "Moves"). Each dataset
 * is listed on its own, so one the daemon cannot list leaves the others' moves usable.
 */
import type { MoveEntry, MoveLibrary } from '../contract/motion.ts';
import { AppError, isAppError, messageOf } from '../errors.ts';
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

/** A dataset the daemon could not list, and why: its moves are missing from the library. */
export interface MissingDataset {
  dataset: string;
  error: AppError;
}

export interface MoveLibraryCache {
  /** The library, each move with its length as far as it is known now. */
  get(): Promise<MoveLibrary>;
  find(name: string): Promise<MoveEntry>;
  /** A whole play of `move` took `seconds` (robot-controls.ts measures it). */
  learnSeconds(move: MoveEntry, seconds: number): void;
  /** The datasets whose last listing failed, in MOVE_DATASETS order; empty once each has listed. */
  missing(): MissingDataset[];
}

/** The datasets the library lists, in the order the page shows them. */
export const MOVE_DATASETS = [EMOTIONS_DATASET, DANCES_DATASET] as const;

export function createMoveLibraryCache(
  daemon: Pick<DaemonClient, 'listMoves'>,
  durations?: MoveDurations,
): MoveLibraryCache {
  const lists = new Map<string, Promise<string[]>>();
  const failed = new Map<string, AppError>();
  const listOf = (dataset: string): Promise<string[]> => {
    let list = lists.get(dataset);
    if (!list) {
      list = daemon.listMoves(dataset);
      lists.set(dataset, list);
      // A listing is cached once it succeeds; a failed one is not: the next caller retries it.
      list.then(
        () => failed.delete(dataset),
        (error: unknown) => {
          lists.delete(dataset);
          failed.set(dataset, isAppError(error) ? error : new AppError('DAEMON_ERROR', messageOf(error)));
        },
      );
    }
    return list;
  };
  const listed = async (): Promise<MoveLibrary> => {
    const settled = await Promise.allSettled(MOVE_DATASETS.map(listOf));
    const found = MOVE_DATASETS.flatMap((dataset, i) => {
      const result = settled[i];
      return result?.status === 'fulfilled' ? [{ dataset, names: result.value }] : [];
    });
    // Nothing listed: fail as a whole, with the first dataset's error (a 502 when the daemon refused).
    if (found.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
    await durations?.load();
    return groupMoves(found);
  };
  const missing = (): MissingDataset[] =>
    MOVE_DATASETS.flatMap((dataset) => {
      const error = failed.get(dataset);
      return error ? [{ dataset, error }] : [];
    });
  const withSeconds = (move: MoveEntry): MoveEntry =>
    durations ? { ...move, seconds: durations.seconds(move.dataset, move.name) } : move;
  return {
    async get() {
      const library = await listed();
      const gaps = missing().map(({ dataset, error }) => ({ dataset, code: error.code, error: error.message }));
      return { ...library, moves: library.moves.map(withSeconds), ...(gaps.length > 0 ? { missing: gaps } : {}) };
    },
    async find(name) {
      const move = (await listed()).moves.find((m) => m.name === name);
      if (!move) {
        // The move may be in a dataset that was not listed: say which, and why.
        const unlisted = missing().map((m) => `${m.dataset} (${m.error.message})`);
        const note = unlisted.length > 0 ? `; not listed: ${unlisted.join(', ')}` : '';
        throw new AppError('MOVE_UNKNOWN', `no move named "${name}" in the library${note}`);
      }
      return withSeconds(move);
    },
    learnSeconds(move, seconds) {
      durations?.learn(move.dataset, move.name, seconds);
    },
    missing,
  };
}
