import { describe, expect, it } from 'vitest';
import { enrolProblem, normalizeToken, signInPrompt } from './sign-in.ts';

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
    expect(signInPrompt('expired')).toMatch(/session has ended/);
    expect(signInPrompt('missing')).toMatch(/passkey, or with the owner token/);
    expect(signInPrompt('missing', false)).toMatch(/^Enter the owner token/);
  });
});

describe('enrolProblem', () => {
  const forbidden = { code: 'AUTH_FORBIDDEN' as const, message: 'enrolment closed' };
  it('explains a refusal for the way the enrolment was attempted', () => {
    expect(enrolProblem('pairing', forbidden)).toMatch(/expired or was already used/);
    expect(enrolProblem('token', forbidden)).toMatch(/refused this enrolment token/);
    expect(enrolProblem('first-use', forbidden)).toMatch(/first-use enrolment is closed/);
  });

  it('passes other failures on', () => {
    expect(enrolProblem('token', { code: 'PASSKEY_CANCELLED', message: 'No passkey was created.' })).toBe('No passkey was created.');
  });
});
