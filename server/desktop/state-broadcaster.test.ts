import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTicker } from './state-broadcaster.ts';

afterEach(() => vi.useRealTimers());

describe('broadcast ticker', () => {
  it('keeps the average rate when a tick runs late', () => {
    vi.useFakeTimers();
    let clock = 0;
    const ticks: number[] = [];
    const stop = startTicker(10, () => {
      ticks.push(clock);
      // The first tick is slow (a loaded machine): 250 ms of work.
      if (ticks.length === 1) clock += 250;
    }, () => clock);
    for (let i = 0; i < 100; i += 1) {
      clock += 10;
      vi.advanceTimersByTime(10);
    }
    stop();
    // 1250 ms of clock (1000 stepped + the 250 ms stall) at 10 Hz: twelve ticks, none lost.
    expect(ticks).toHaveLength(12);
    // The ticks after the stall come back to the 100 ms grid rather than drifting by 250 ms.
    expect(ticks[ticks.length - 1]).toBe(1200);
  });
});
