import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.ts';
import { createFakeClock } from '../auth/testing/fake-clock.ts';

describe('createRateLimiter', () => {
  it('allows `limit` requests per sliding second per key, then refuses with Retry-After', () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 3, clock });
    expect(limiter.check('a')).toEqual({ ok: true });
    clock.advance(400);
    expect(limiter.check('a')).toEqual({ ok: true });
    expect(limiter.check('a')).toEqual({ ok: true });
    expect(limiter.check('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.check('b')).toEqual({ ok: true });
    clock.advance(599);
    expect(limiter.check('a').ok).toBe(false);
    clock.advance(1); // the first request is now a full window old
    expect(limiter.check('a')).toEqual({ ok: true });
    expect(limiter.check('a').ok).toBe(false);
  });

  it('does not count refused requests, so a client that keeps hammering recovers after a window', () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 1, clock });
    expect(limiter.check('a').ok).toBe(true);
    for (let i = 0; i < 9; i += 1) {
      clock.advance(100);
      expect(limiter.check('a').ok).toBe(false);
    }
    clock.advance(100);
    expect(limiter.check('a').ok).toBe(true);
  });

  it('reports Retry-After in whole seconds for longer windows', () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 10_000, clock });
    limiter.check('a');
    clock.advance(2500);
    expect(limiter.check('a')).toEqual({ ok: false, retryAfterSeconds: 8 });
  });

  it('forgets idle keys and caps the number tracked', () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 5, clock, maxKeys: 50 });
    for (let i = 0; i < 200; i += 1) limiter.check(`k${i}`);
    expect(limiter.size()).toBe(50);
    clock.advance(1000);
    limiter.check('fresh');
    expect(limiter.size()).toBe(1);
  });

  it('does not lock a client out for as long as the wall clock was set back', () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ limit: 2, clock });
    limiter.check('a');
    limiter.check('a');
    expect(limiter.check('a').ok).toBe(false);
    // The clock is set back an hour (a time sync): the requests it counted are now in its future.
    clock.set(clock.now() - 3_600_000);
    expect(limiter.check('a')).toEqual({ ok: true });
    expect(limiter.check('a')).toEqual({ ok: true });
    expect(limiter.check('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('refuses a nonsense limit', () => {
    expect(() => createRateLimiter({ limit: 0, clock: createFakeClock() })).toThrow(RangeError);
  });
});
