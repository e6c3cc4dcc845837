import { describe, expect, it } from 'vitest';
import { matchesSecret, tokensEqual } from './secret-compare.ts';

describe('tokensEqual', () => {
  it('is true only for identical strings, whatever the lengths', () => {
    expect(tokensEqual('abcdefghijklmnop', 'abcdefghijklmnop')).toBe(true);
    expect(tokensEqual('abcdefghijklmnop', 'abcdefghijklmnoq')).toBe(false);
    expect(tokensEqual('abcdefghijklmnop', 'abcdefghijklmno')).toBe(false);
    expect(tokensEqual('', 'x')).toBe(false);
    expect(tokensEqual('é', 'e\u0301')).toBe(false);
  });
});

describe('matchesSecret', () => {
  it('agrees with tokensEqual when the expected secret changes between calls', () => {
    expect(matchesSecret('abcdefghijklmnop', 'abcdefghijklmnop')).toBe(true);
    expect(matchesSecret('abcdefghijklmnop', 'qrstuvwxyzabcdef')).toBe(false);
    expect(matchesSecret('qrstuvwxyzabcdef', 'qrstuvwxyzabcdef')).toBe(true);
  });
});

describe('matchesSecret on what a stranger can present', () => {
  it('refuses prefixes, extensions, other encodings and the empty string', () => {
    const secret = 'owner-secret-0123456789';
    for (const presented of ['', secret.slice(0, -1), `${secret}x`, secret.toUpperCase(), `${secret.slice(0, -1)}é`, 'é'.repeat(secret.length)]) {
      expect(matchesSecret(presented, secret), presented).toBe(false);
    }
    expect(matchesSecret(secret, secret)).toBe(true);
  });
});
