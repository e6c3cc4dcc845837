import { describe, expect, it } from 'vitest';
import { failureFromBody, networkFailure } from './api-result.ts';

describe('failureFromBody', () => {
  it('keeps the code and message of a cockpit error body', () => {
    expect(failureFromBody(401, { error: 'no valid credential', code: 'AUTH_REQUIRED' })).toEqual({
      ok: false,
      status: 401,
      code: 'AUTH_REQUIRED',
      message: 'no valid credential',
    });
  });

  it.each([null, 'text', { error: 3 }, { code: '' }])('falls back to the status for body %j', (body) => {
    expect(failureFromBody(502, body)).toEqual({
      ok: false,
      status: 502,
      code: 'HTTP_502',
      message: 'The cockpit answered 502.',
    });
  });
});

describe('networkFailure', () => {
  it('tells a timeout from no answer', () => {
    expect(networkFailure(true).code).toBe('TIMEOUT');
    expect(networkFailure(false)).toMatchObject({ status: 0, code: 'NETWORK' });
  });
});
