import { describe, expect, it } from 'vitest';
import { normalizeToken, signInPrompt } from './sign-in.ts';

describe('normalizeToken', () => {
  it.each([
    ['  abc123  ', 'abc123'],
    ['Bearer abc123', 'abc123'],
    ['http://robot.local:8097/?token=abc%2B1', 'abc+1'],
    ['http://robot.local:8097/#token=abc123&x=1', 'abc123'],
    ['', null],
    ['   ', null],
    ['two words', null],
  ])('%j → %j', (input, token) => {
    expect(normalizeToken(input)).toBe(token);
  });
});

describe('signInPrompt', () => {
  it('explains why the card is showing', () => {
    expect(signInPrompt('refused')).toMatch(/no longer accepts/);
    expect(signInPrompt('signed-out')).toMatch(/signed out/);
    expect(signInPrompt('missing')).toMatch(/owner token/);
  });
});
