import { describe, expect, it } from 'vitest';
import { DEFAULT_FAVOURITES, readFavourites, toggled, writeFavourites } from './favourite-moves.ts';

function storage(initial?: string) {
  let value: string | null = initial ?? null;
  return {
    getItem: () => value,
    setItem: (_key: string, v: string) => void (value = v),
  };
}

describe('favourite moves', () => {
  it('starts with the defaults and keeps what is written', () => {
    const s = storage();
    expect(readFavourites(s)).toEqual(DEFAULT_FAVOURITES);
    writeFavourites(['dance1', 'yes1'], s);
    expect(readFavourites(s)).toEqual(['dance1', 'yes1']);
    writeFavourites([], s);
    expect(readFavourites(s)).toEqual([]);
  });

  it('reads damaged storage as the defaults and drops entries that are not names', () => {
    expect(readFavourites(storage('{not json'))).toEqual(DEFAULT_FAVOURITES);
    expect(readFavourites(storage('{"a":1}'))).toEqual(DEFAULT_FAVOURITES);
    expect(readFavourites(storage('["yes1", 3, null, "no1"]'))).toEqual(['yes1', 'no1']);
  });

  it('adds at the end and removes when toggled again', () => {
    expect(toggled(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggled(['a', 'b'], 'a')).toEqual(['b']);
  });
});
