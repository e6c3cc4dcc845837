/** The favourite moves as shared reactive state: one list for the quick bar and the Moves page. */
import { readFavourites, toggled, writeFavourites } from './favourite-moves.ts';

class FavouriteMoves {
  names = $state<string[]>(readFavourites(localStorage));

  has(name: string): boolean {
    return this.names.includes(name);
  }

  toggle(name: string): void {
    this.names = toggled(this.names, name);
    writeFavourites(this.names, localStorage);
  }
}

export const favouriteMoves = new FavouriteMoves();
