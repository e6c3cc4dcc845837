import { describe, expect, it } from 'vitest';
import { createManualSchedule } from '../testing/manual-schedule.ts';
import { createSpeakingHold } from './speaking-hold.ts';

function recorder(clock: { now(): number }) {
  const events: Array<[number, string, number?]> = [];
  return {
    events,
    holds: {
      take: (name: string, ttl: number) => void events.push([clock.now(), `take ${name}`, ttl]),
      release: (name: string) => void events.push([clock.now(), `release ${name}`]),
    },
  };
}

describe('speaking hold', () => {
  it('is taken at the first audio, covers the clip, and is released 0.8 s after the answer completes', () => {
    const clock = createManualSchedule(0);
    const r = recorder(clock);
    const hold = createSpeakingHold(r.holds, clock.schedule);
    hold.begin();
    clock.advance(300);
    hold.playing(2);
    clock.advance(2000);
    hold.complete();
    clock.advance(799);
    expect(hold.held()).toBe(true);
    clock.advance(1);
    expect(hold.held()).toBe(false);
    expect(r.events).toEqual([
      [0, 'take speaking', 20],
      [300, 'take speaking', 3.8],
      [2300, 'take speaking', 1.3],
      [3100, 'release speaking'],
    ]);
  });

  it('is released at once on interruption, and the pending tail release does nothing later', () => {
    const clock = createManualSchedule(0);
    const r = recorder(clock);
    const hold = createSpeakingHold(r.holds, clock.schedule);
    hold.begin();
    hold.complete();
    clock.advance(100);
    hold.interrupt();
    clock.advance(5000);
    expect(r.events.filter(([, e]) => e.startsWith('release'))).toEqual([[100, 'release speaking']]);
    hold.interrupt();
    hold.complete();
    expect(r.events).toHaveLength(3);
  });
});
