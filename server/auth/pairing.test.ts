import { describe, expect, it } from 'vitest';
import { createPairingCodes } from './pairing.ts';
import { createFakeClock } from './testing/fake-clock.ts';

describe('createPairingCodes', () => {
  it('issues random codes that work exactly once within 5 minutes', () => {
    const clock = createFakeClock();
    const codes = createPairingCodes({ clock });
    const a = codes.issue();
    const b = codes.issue();
    expect(a.code).not.toBe(b.code);
    expect(a.code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.expiresAt).toBe(clock.now() + 5 * 60_000);
    expect(codes.redeem(a.code)).toBe(true);
    expect(codes.redeem(a.code)).toBe(false);
    clock.advance(5 * 60_000 - 1);
    expect(codes.redeem(b.code)).toBe(true);
  });

  it('refuses expired, unknown and empty codes', () => {
    const clock = createFakeClock();
    const codes = createPairingCodes({ clock });
    const { code } = codes.issue();
    clock.advance(5 * 60_000);
    expect(codes.redeem(code)).toBe(false);
    expect(codes.redeem('nope')).toBe(false);
    expect(codes.redeem('')).toBe(false);
  });

  it('keeps a bounded number of live codes, dropping the oldest', () => {
    const codes = createPairingCodes({ clock: createFakeClock(), maxLive: 2 });
    const [a, b, c] = [codes.issue(), codes.issue(), codes.issue()];
    expect(codes.redeem(a.code)).toBe(false);
    expect(codes.redeem(b.code)).toBe(true);
    expect(codes.redeem(c.code)).toBe(true);
  });
});
