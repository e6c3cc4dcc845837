import { describe, expect, it } from 'vitest';
import { createManualClock } from './manual-clock.ts';

describe('manual clock', () => {
  it('stands still until advanced, then runs due timers in due order', () => {
    const clock = createManualClock(1000);
    const ran: string[] = [];
    clock.schedule(() => ran.push(`b@${clock.now()}`), 200);
    clock.schedule(() => ran.push(`a@${clock.now()}`), 100);
    clock.schedule(() => ran.push(`c@${clock.now()}`), 500);
    expect(clock.now()).toBe(1000);
    clock.advance(200);
    expect(ran).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1200);
    expect(clock.pending()).toBe(1);
  });

  it('runs a timer scheduled by a timer within the same advance, and never a cancelled one', () => {
    const clock = createManualClock(0);
    const ran: number[] = [];
    const cancel = clock.schedule(() => ran.push(-1), 50);
    clock.schedule(() => clock.schedule(() => ran.push(clock.now()), 30), 40);
    cancel();
    clock.advance(100);
    expect(ran).toEqual([70]);
    expect(clock.pending()).toBe(0);
  });

  it('runNext jumps to the next timer; set moves the wall clock without running timers', () => {
    const clock = createManualClock(0);
    const ran: number[] = [];
    clock.schedule(() => ran.push(clock.now()), 300);
    clock.set(250);
    expect(ran).toEqual([]);
    expect(clock.runNext()).toBe(true);
    expect(ran).toEqual([300]);
    expect(clock.runNext()).toBe(false);
  });
});
