import { describe, expect, it } from 'vitest';
import { createRedrawScheduler, REDUCED_MOTION_GAP_MS, type RedrawTiming } from './redraw-scheduler.ts';

function fakeTiming(reduced: boolean) {
  let now = 0;
  let frames: (() => void)[] = [];
  let delays: { at: number; fn: () => void }[] = [];
  const timing: RedrawTiming = {
    frame: (fn) => frames.push(fn),
    cancelFrame: () => (frames = []),
    delay: (fn, ms) => {
      delays.push({ at: now + ms, fn });
      return 0 as unknown as ReturnType<typeof setTimeout>;
    },
    cancelDelay: () => (delays = []),
    now: () => now,
    reducedMotion: () => reduced,
  };
  return {
    timing,
    /** Runs the pending animation frames. */
    paint() {
      const due = frames;
      frames = [];
      for (const fn of due) fn();
    },
    advance(ms: number) {
      now += ms;
      const due = delays.filter((d) => d.at <= now);
      delays = delays.filter((d) => d.at > now);
      for (const d of due) d.fn();
    },
  };
}

describe('createRedrawScheduler', () => {
  it('folds every request before the next frame into one redraw', () => {
    const t = fakeTiming(false);
    let draws = 0;
    const s = createRedrawScheduler(() => (draws += 1), t.timing);
    s.request();
    s.request();
    s.request();
    t.paint();
    expect(draws).toBe(1);
    s.request();
    t.paint();
    expect(draws).toBe(2);
  });

  it('with reduced motion, redraws at most once per gap', () => {
    const t = fakeTiming(true);
    let draws = 0;
    const s = createRedrawScheduler(() => (draws += 1), t.timing);
    s.request();
    t.paint();
    expect(draws).toBe(1);
    t.advance(100);
    s.request();
    t.paint();
    expect(draws).toBe(1);
    t.advance(REDUCED_MOTION_GAP_MS - 101);
    t.paint();
    expect(draws).toBe(1);
    t.advance(1);
    t.paint();
    expect(draws).toBe(2);
  });

  it('draws nothing once cancelled', () => {
    const t = fakeTiming(false);
    let draws = 0;
    const s = createRedrawScheduler(() => (draws += 1), t.timing);
    s.request();
    s.cancel();
    t.paint();
    expect(draws).toBe(0);
  });
});
