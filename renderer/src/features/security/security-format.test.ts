import { describe, expect, it } from 'vitest';
import { formatCountdown, formatWhen, localExpiry, phoneCanOpen, sessionText } from './security-format.ts';

describe('formatWhen', () => {
  it('shows a date and time, or never', () => {
    expect(formatWhen('2026-11-21T06:01:00.000Z', 'en-GB', 'UTC')).toBe('21 Nov 2026, 06:01');
    expect(formatWhen(null)).toBe('never');
    expect(formatWhen('garbage')).toBe('unknown');
  });
});

describe('formatCountdown', () => {
  it.each([
    [300_000, '5:00'],
    [299_001, '5:00'],
    [298_500, '4:59'],
    [9_000, '0:09'],
    [-5, '0:00'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatCountdown(ms)).toBe(text);
  });
});

describe('localExpiry', () => {
  it('trusts the cockpit stamp when the clocks agree', () => {
    expect(localExpiry(1_300_500, 1_000_000, 300_000)).toBe(1_300_500);
  });

  it('counts from receipt when the clocks disagree', () => {
    expect(localExpiry(9_999_999, 1_000_000, 300_000)).toBe(1_300_000);
  });
});

describe('sessionText', () => {
  it('says how this browser is signed in', () => {
    expect(sessionText({ who: 'passkey', sessionExpiresAt: Date.UTC(2026, 10, 21, 18, 0) }, false, 'en-GB', 'UTC')).toBe(
      'Signed in with a passkey until 21 Nov 2026, 18:00.',
    );
    expect(sessionText({ who: 'token', sessionExpiresAt: null }, true)).toMatch(/owner token/);
    expect(sessionText({ who: 'anonymous', sessionExpiresAt: null }, false)).toBe('Not signed in.');
  });
});

describe('phoneCanOpen', () => {
  it.each([
    ['https://reachy.local:8098/?pair=x', true],
    ['http://192.168.1.20:8097/?pair=x', true],
    ['http://localhost:8097/?pair=x', false],
    ['http://127.0.0.1:8097/?pair=x', false],
    ['http://[::1]:8097/?pair=x', false],
    ['not a url', false],
  ])('%s → %s', (url, reachable) => {
    expect(phoneCanOpen(url)).toBe(reachable);
  });
});
