/**
 * When a live plot redraws: at most once per animation frame however often data arrives, and,
 * for someone who asked the system for reduced motion, at most once a second, so the lines step
 * instead of scrolling. A hidden tab gets no animation frames, so it draws nothing until it shows.
 */
export interface RedrawScheduler {
  /** Asks for one redraw; requests made before it runs are folded into it. */
  request(): void;
  cancel(): void;
}

export interface RedrawTiming {
  frame(fn: () => void): number;
  cancelFrame(id: number): void;
  delay(fn: () => void, ms: number): ReturnType<typeof setTimeout>;
  cancelDelay(id: ReturnType<typeof setTimeout>): void;
  now(): number;
  reducedMotion(): boolean;
}

/** Redraws of a reduced-motion plot are at least this far apart. */
export const REDUCED_MOTION_GAP_MS = 1000;

export function createRedrawScheduler(draw: () => void, timing: RedrawTiming = browserTiming()): RedrawScheduler {
  let frameId: number | null = null;
  let delayId: ReturnType<typeof setTimeout> | null = null;
  let lastDraw = -Infinity;
  const run = () => {
    frameId = null;
    lastDraw = timing.now();
    draw();
  };
  return {
    request() {
      if (frameId !== null || delayId !== null) return;
      const wait = timing.reducedMotion() ? lastDraw + REDUCED_MOTION_GAP_MS - timing.now() : 0;
      if (wait <= 0) {
        frameId = timing.frame(run);
        return;
      }
      delayId = timing.delay(() => {
        delayId = null;
        frameId = timing.frame(run);
      }, wait);
    },
    cancel() {
      if (frameId !== null) timing.cancelFrame(frameId);
      if (delayId !== null) timing.cancelDelay(delayId);
      frameId = null;
      delayId = null;
    },
  };
}

function browserTiming(): RedrawTiming {
  const query = window.matchMedia('(prefers-reduced-motion: reduce)');
  return {
    frame: (fn) => requestAnimationFrame(fn),
    cancelFrame: (id) => cancelAnimationFrame(id),
    delay: (fn, ms) => setTimeout(fn, ms),
    cancelDelay: (id) => clearTimeout(id),
    now: () => performance.now(),
    reducedMotion: () => query.matches,
  };
}
