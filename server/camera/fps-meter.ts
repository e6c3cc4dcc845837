/** Frames per second over a sliding window: what /api/health reports as camera.fps. */

export interface FpsMeter {
  tick(nowMs: number): void;
  rate(nowMs: number): number;
  reset(): void;
}

export function createFpsMeter(windowMs = 2000): FpsMeter {
  let times: number[] = [];
  const prune = (now: number): void => {
    const from = now - windowMs;
    let drop = 0;
    while (drop < times.length && (times[drop] ?? 0) < from) drop += 1;
    if (drop > 0) times = times.slice(drop);
  };
  return {
    tick(now) {
      times.push(now);
      prune(now);
    },
    rate(now) {
      prune(now);
      const first = times[0];
      const last = times.at(-1);
      if (first === undefined || last === undefined || times.length < 2 || last === first) return 0;
      // Intervals between the frames seen, so a window that is not full yet still reads true.
      return Math.round(((times.length - 1) * 1000 * 10) / (last - first)) / 10;
    },
    reset() {
      times = [];
    },
  };
}
