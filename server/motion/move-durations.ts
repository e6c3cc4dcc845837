/**
 * How long each recorded move lasts, for the Moves page's previews. The daemon's list of moves
 * gives names only, so the length comes from the daemon's own move files when they are on this
 * computer (hub-move-files.ts: exact, known before a first play), else from what the cockpit saw:
 * a move it played to the end, from the daemon taking it to the daemon's move_completed event.
 * Learned lengths are kept in `move-durations.json` in the data folder, so they survive restarts.
 */
import { join } from 'node:path';
import type { Log } from '../log.ts';
import { createJsonDocument, type JsonDocument } from '../store/json-document.ts';
import { readDatasetSeconds } from './hub-move-files.ts';

export interface MoveDurations {
  /** Reads the stored lengths and, when given a hub cache, the daemon's move files. Once. */
  load(): Promise<void>;
  /** Seconds of a move, or null when not known yet. */
  seconds(dataset: string, name: string): number | null;
  /** A whole play of the move took `seconds`; kept unless the daemon's file already says. */
  learn(dataset: string, name: string, seconds: number): void;
}

export interface MoveDurationsOptions {
  /** The data folder; without one, learned lengths last until the cockpit stops. */
  dataDir?: string;
  /** The hub cache the daemon reads, when the daemon runs on this computer; null otherwise. */
  hubCache: string | null;
  datasets: readonly string[];
  log: Log;
}

interface Stored {
  /** `dataset/name` → seconds, one decimal. */
  moves: Record<string, number>;
}

/** A whole play outside this range is not a move's length (a stalled event, a clock jump). */
const PLAUSIBLE_S = { min: 0.2, max: 120 };

const keyOf = (dataset: string, name: string) => `${dataset}/${name}`;

function validStored(value: unknown): Stored | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const moves = (value as { moves?: unknown }).moves;
  if (typeof moves !== 'object' || moves === null) return undefined;
  const kept = Object.entries(moves).filter(([, s]) => typeof s === 'number' && Number.isFinite(s));
  return { moves: Object.fromEntries(kept) as Record<string, number> };
}

export function createMoveDurations(options: MoveDurationsOptions): MoveDurations {
  const fromFiles = new Map<string, number>();
  let learned: Record<string, number> = {};
  const doc: JsonDocument<Stored> | undefined = options.dataDir
    ? createJsonDocument<Stored>({
        file: join(options.dataDir, 'move-durations.json'),
        defaults: () => ({ moves: {} }),
        validate: validStored,
        log: options.log,
      })
    : undefined;
  let loading: Promise<void> | undefined;

  const readFiles = async (hub: string): Promise<void> => {
    for (const dataset of options.datasets) {
      for (const [name, seconds] of await readDatasetSeconds(hub, dataset))
        fromFiles.set(keyOf(dataset, name), seconds);
    }
    options.log.debug("move lengths read from the daemon's move files", { moves: fromFiles.size, hub });
  };

  const load = (): Promise<void> =>
    (loading ??= (async () => {
      // A length learned before the file was read is newer than the file's. A file that cannot
      // be read costs the stored lengths only: the library must still load.
      if (doc) {
        try {
          learned = { ...(await doc.load()).moves, ...learned };
        } catch (error) {
          options.log.warn('stored move lengths not read', { error: String(error) });
        }
      }
      if (options.hubCache) {
        await readFiles(options.hubCache).catch((error: unknown) => {
          options.log.warn("could not read the daemon's move files", { error: String(error) });
        });
      }
    })());

  return {
    load,
    seconds(dataset, name) {
      const key = keyOf(dataset, name);
      const seconds = fromFiles.get(key) ?? learned[key];
      return seconds === undefined ? null : Math.round(seconds * 10) / 10;
    },
    learn(dataset, name, seconds) {
      const key = keyOf(dataset, name);
      if (fromFiles.has(key) || seconds < PLAUSIBLE_S.min || seconds > PLAUSIBLE_S.max) return;
      learned = { ...learned, [key]: Math.round(seconds * 10) / 10 };
      if (!doc) return;
      void load()
        .then(() => doc.save({ moves: learned }))
        .catch((error: unknown) => options.log.warn('move length not saved', { move: key, error: String(error) }));
    },
  };
}
