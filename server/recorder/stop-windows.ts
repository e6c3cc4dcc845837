/**
 * The windows STOPs keep: the 60 s before a STOP and the 30 s after it. STOPs whose windows
 * overlap share one recording that runs from the first one's 60 s before to the last one's 30 s
 * after, so an operator who presses STOP again and again (or a script that does) gets one file
 * with every STOP marked in it. Without the merge, fifty STOPs in half a minute became fifty
 * nearly identical 90 s copies, each read back from the ring and written out again 30 s later.
 * A merged window never grows past the ring's length, the most the ring still holds: the next
 * STOP then starts a window of its own.
 */

export const STOP_BEFORE_MS = 60_000;
export const STOP_AFTER_MS = 30_000;

export interface StopWindow {
  fromMs: number;
  toMs: number;
  /** Every STOP in it, in the order noted; the first names the recording. */
  stops: number[];
}

export interface StopWindows {
  note(at: number): void;
  /** The oldest window whose 30 s after are recorded (any, when `force`), taken off the list. */
  takeDue(now: number, force: boolean): StopWindow | undefined;
  /** The spans the ring must not delete yet. */
  spans(): Array<readonly [number, number]>;
  /** Every STOP still waiting for its window to be kept. */
  stops(): number[];
}

export function createStopWindows(maxMs: number): StopWindows {
  const windows: StopWindow[] = [];
  return {
    note(at) {
      const fromMs = at - STOP_BEFORE_MS;
      const toMs = at + STOP_AFTER_MS;
      const last = windows.at(-1);
      const from = Math.min(last?.fromMs ?? fromMs, fromMs);
      const to = Math.max(last?.toMs ?? toMs, toMs);
      if (last && fromMs <= last.toMs && to - from <= maxMs) {
        last.fromMs = from;
        last.toMs = to;
        last.stops.push(at);
      } else windows.push({ fromMs, toMs, stops: [at] });
    },
    takeDue(now, force) {
      const first = windows[0];
      return first && (force || now > first.toMs) ? windows.shift() : undefined;
    },
    spans: () => windows.map((w) => [w.fromMs, w.toMs] as const),
    stops: () => windows.flatMap((w) => w.stops),
  };
}
