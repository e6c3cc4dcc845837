import { describe, expect, it } from 'vitest';
import { createStopWindows, STOP_AFTER_MS, STOP_BEFORE_MS } from './stop-windows.ts';

const TEN_MINUTES = 600_000;

describe('STOP windows', () => {
  it('keeps one window per lone STOP, due once its 30 s after have passed', () => {
    const windows = createStopWindows(TEN_MINUTES);
    windows.note(100_000);
    expect(windows.spans()).toEqual([[100_000 - STOP_BEFORE_MS, 100_000 + STOP_AFTER_MS]]);
    expect(windows.takeDue(130_000, false)).toBeUndefined();
    expect(windows.takeDue(130_001, false)).toEqual({ fromMs: 40_000, toMs: 130_000, stops: [100_000] });
    expect(windows.stops()).toEqual([]);
  });

  it('merges STOPs whose windows overlap into one recording holding every STOP', () => {
    const windows = createStopWindows(TEN_MINUTES);
    for (let i = 0; i < 50; i += 1) windows.note(100_000 + i * 500);
    const last = 100_000 + 49 * 500;
    expect(windows.spans()).toEqual([[40_000, last + STOP_AFTER_MS]]);
    expect(windows.stops()).toHaveLength(50);
    // Not due at the first STOP's 30 s after: the last one's are still being recorded.
    expect(windows.takeDue(130_001, false)).toBeUndefined();
    expect(windows.takeDue(last + STOP_AFTER_MS + 1, false)?.stops).toHaveLength(50);
  });

  it('starts a new window for a STOP whose window does not touch the last one', () => {
    const windows = createStopWindows(TEN_MINUTES);
    windows.note(100_000);
    windows.note(100_000 + STOP_BEFORE_MS + STOP_AFTER_MS + 1);
    expect(windows.spans()).toHaveLength(2);
    // Touching counts as overlapping.
    const touching = createStopWindows(TEN_MINUTES);
    touching.note(100_000);
    touching.note(100_000 + STOP_BEFORE_MS + STOP_AFTER_MS);
    expect(touching.spans()).toHaveLength(1);
  });

  it('never grows a window past the ring: a STOP beyond that starts the next window', () => {
    const windows = createStopWindows(TEN_MINUTES);
    // A STOP every 20 s for 15 minutes.
    for (let t = 100_000; t < 100_000 + 900_000; t += 20_000) windows.note(t);
    const spans = windows.spans();
    expect(spans.length).toBe(2);
    for (const [from, to] of spans) expect(to - from).toBeLessThanOrEqual(TEN_MINUTES);
    expect(windows.stops()).toHaveLength(45);
  });

  it('keeps everything when asked to (shutdown), oldest first', () => {
    const windows = createStopWindows(TEN_MINUTES);
    windows.note(100_000);
    windows.note(500_000);
    expect(windows.takeDue(0, true)?.stops).toEqual([100_000]);
    expect(windows.takeDue(0, true)?.stops).toEqual([500_000]);
    expect(windows.takeDue(0, true)).toBeUndefined();
  });
});
