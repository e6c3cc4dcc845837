import { describe, expect, it } from 'vitest';
import type { MoveEntry } from '../../../../server/contract/index.ts';
import { familyOrder, filterMoves, formatLength, moveLabel } from './move-filter.ts';

const move = (name: string, family: string): MoveEntry => ({
  name,
  family,
  dataset: 'emotions',
  lifecycle: family === 'lifecycle',
  seconds: null,
});
const library = [
  move('amazed1', 'joy'),
  move('no_excited1', 'answers'),
  move('yes1', 'answers'),
  move('dance_groove', 'dance'),
  move('sleep1', 'lifecycle'),
];

describe('familyOrder', () => {
  it('puts feelings first, unknown families before lifecycle, no duplicates', () => {
    expect(familyOrder(['lifecycle', 'dance', 'zany', 'joy', 'answers', 'joy'])).toEqual([
      'joy',
      'answers',
      'dance',
      'zany',
      'lifecycle',
    ]);
  });
});

describe('moveLabel', () => {
  it.each([
    ['amazed1', 'amazed 1'],
    ['no_excited12', 'no excited 12'],
    ['dance_groove', 'dance groove'],
  ])('%s → %s', (name, label) => {
    expect(moveLabel(name)).toBe(label);
  });
});

describe('filterMoves', () => {
  it('filters by family and by every word of the query', () => {
    expect(filterMoves(library, '', 'answers').map((m) => m.name)).toEqual(['no_excited1', 'yes1']);
    expect(filterMoves(library, 'no exc', null).map((m) => m.name)).toEqual(['no_excited1']);
    expect(filterMoves(library, 'NO_EXCITED', null).map((m) => m.name)).toEqual(['no_excited1']);
    expect(filterMoves(library, 'joy', null).map((m) => m.name)).toEqual(['amazed1']);
    expect(filterMoves(library, 'groove', 'joy')).toEqual([]);
    expect(filterMoves(library, '  ', null)).toHaveLength(5);
  });
});

describe('formatLength', () => {
  it('gives tenths under ten seconds, whole seconds above, nothing while unknown', () => {
    expect(formatLength(2.345)).toBe('2.3 s');
    expect(formatLength(9.96)).toBe('10 s');
    expect(formatLength(12.4)).toBe('12 s');
    expect(formatLength(null)).toBe('');
  });
});
