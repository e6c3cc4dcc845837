import { describe, expect, it } from 'vitest';
import { createFailureThrottle } from './brute-force.ts';
import { createFakeClock } from './testing/fake-clock.ts';

describe('createFailureThrottle', () => {
  it('starts at zero, grows 250 ms doubling to 8 s, and is per client', () => {
    const throttle = createFailureThrottle({ clock: createFakeClock() });
    expect(throttle.delayFor('a')).toBe(0);
    const delays: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      throttle.recordFailure('a');
      delays.push(throttle.delayFor('a'));
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(throttle.delayFor('b')).toBe(0);
  });

  it('clears on success so a valid key is never held back', () => {
    const throttle = createFailureThrottle({ clock: createFakeClock() });
    for (let i = 0; i < 5; i += 1) throttle.recordFailure('a');
    throttle.recordSuccess('a');
    expect(throttle.delayFor('a')).toBe(0);
  });

  it('forgets a client after a quiet period and never overflows', () => {
    const clock = createFakeClock();
    const throttle = createFailureThrottle({ clock, forgetAfterMs: 60_000 });
    for (let i = 0; i < 2000; i += 1) throttle.recordFailure('a');
    expect(throttle.delayFor('a')).toBe(8000);
    clock.advance(60_000);
    expect(throttle.delayFor('a')).toBe(0);
    throttle.recordFailure('a');
    expect(throttle.delayFor('a')).toBe(250);
  });

  it('bounds memory', () => {
    const throttle = createFailureThrottle({ clock: createFakeClock(), maxKeys: 10 });
    for (let i = 0; i < 100; i += 1) throttle.recordFailure(`k${i}`);
    expect(throttle.size()).toBe(10);
    expect(throttle.delayFor('k99')).toBe(250);
  });
});
