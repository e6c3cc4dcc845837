import { describe, expect, it } from 'vitest';
import { createSeriesWindow } from './series-window.ts';

describe('createSeriesWindow', () => {
  it('keeps the samples of the last window, in columns, changed in place', () => {
    const w = createSeriesWindow(2, 30);
    const columns = w.data;
    w.push(100, [1, 2]);
    w.push(115, [3, null]);
    w.push(131, [5, 6]);
    expect(w.data).toBe(columns);
    expect(w.data).toEqual([
      [115, 131],
      [3, 5],
      [null, 6],
    ]);
    expect(w.latest()).toEqual([5, 6]);
  });

  it('ignores a sample that is not newer than the last', () => {
    const w = createSeriesWindow(1, 10);
    w.push(5, [1]);
    w.push(5, [2]);
    w.push(4, [3]);
    expect(w.data).toEqual([[5], [1]]);
  });

  it('reads missing values as gaps and starts empty after clear', () => {
    const w = createSeriesWindow(2, 10);
    expect(w.latest()).toBeNull();
    w.push(1, [7]);
    expect(w.latest()).toEqual([7, null]);
    w.clear();
    expect(w.data).toEqual([[], [], []]);
  });
});
