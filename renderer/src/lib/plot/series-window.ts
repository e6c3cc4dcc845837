/**
 * A moving time window of samples in the columnar form uPlot draws ([times, ...series]), filled
 * in place: the pose plot appends 15 times a second, so nothing is copied per sample. Times are
 * seconds (uPlot's time scale); a value may be null (a gap in the line).
 */
export type Columns = [number[], ...(number | null)[][]];

export interface SeriesWindow {
  /** The columns uPlot draws; the same arrays, changed in place. */
  readonly data: Columns;
  /** Appends one sample (seconds, one value per series) and drops what left the window. */
  push(t: number, values: readonly (number | null)[]): void;
  /** The latest sample's values, or null while there is none. */
  latest(): (number | null)[] | null;
  clear(): void;
}

export function createSeriesWindow(seriesCount: number, windowSeconds: number): SeriesWindow {
  const data: Columns = [[], ...Array.from({ length: seriesCount }, () => [] as (number | null)[])];
  const times = data[0];
  return {
    data,
    push(t, values) {
      // A sample older than the last (a reconnect replaying history) would fold the line back.
      const last = times.at(-1);
      if (last !== undefined && t <= last) return;
      times.push(t);
      for (let i = 0; i < seriesCount; i += 1) (data[i + 1] as (number | null)[]).push(values[i] ?? null);
      let drop = 0;
      while (drop < times.length && times[drop]! < t - windowSeconds) drop += 1;
      if (drop > 0) for (const column of data) column.splice(0, drop);
    },
    latest() {
      const n = times.length;
      return n === 0 ? null : data.slice(1).map((column) => column[n - 1] ?? null);
    },
    clear() {
      for (const column of data) column.length = 0;
    },
  };
}
