/**
 * The recorded-move library as shared reactive state: the quick bar and the Moves page read one
 * copy, fetched once (GET /api/emotions), instead of each asking for it. A failed fetch is kept
 * as the problem to show, and the next load asks again. The Moves page asks again each time it
 * opens (refresh), so lengths learned from plays since show up; the list stays while it asks.
 */
import type { MoveEntry } from '../../../../server/contract/index.ts';
import type { ControlApi } from '../../lib/api/control-api.ts';

class MoveLibraryStore {
  moves = $state.raw<MoveEntry[] | null>(null);
  problem = $state<string | null>(null);
  /** Datasets the robot could not list: the library shown is partial, and says so. */
  missing = $state<string | null>(null);
  #loading: Promise<void> | undefined;

  load(api: Pick<ControlApi, 'moves'>): Promise<void> {
    this.#loading ??= api.moves().then((result) => {
      if (result.ok) {
        this.moves = result.data.moves;
        this.problem = null;
        const gaps = result.data.missing ?? [];
        this.missing = gaps.length > 0 ? gaps.map((m) => `${m.dataset} (${m.error})`).join('; ') : null;
      } else {
        this.problem = `The move library could not be loaded: ${result.message}`;
        this.#loading = undefined;
      }
    });
    return this.#loading;
  }

  /** Asks again, keeping the current list on screen until the answer comes. */
  refresh(api: Pick<ControlApi, 'moves'>): Promise<void> {
    this.#loading = undefined;
    return this.load(api);
  }
}

export const moveLibrary = new MoveLibraryStore();
