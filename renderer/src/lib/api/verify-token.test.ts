import { describe, expect, it } from 'vitest';
import type { ApiResult } from './api-result.ts';
import type { HttpClient } from './http-client.ts';
import { verifyToken } from './verify-token.ts';

function clientAnswering(result: ApiResult<unknown>): HttpClient & { tokens: (string | undefined)[] } {
  const tokens: (string | undefined)[] = [];
  return {
    tokens,
    async request<T>(_path: string, options?: { token?: string }) {
      tokens.push(options?.token);
      return result as ApiResult<T>;
    },
  };
}

describe('verifyToken', () => {
  it('accepts a token the cockpit takes, and checks with that token', async () => {
    const client = clientAnswering({ ok: true, status: 200, data: {} });
    await expect(verifyToken(client, 'typed')).resolves.toEqual({ verdict: 'accepted' });
    expect(client.tokens).toEqual(['typed']);
  });

  it('accepts a token when only the daemon is down', async () => {
    const client = clientAnswering({ ok: false, status: 503, code: 'DAEMON_UNREACHABLE', message: 'down' });
    await expect(verifyToken(client, 't')).resolves.toEqual({ verdict: 'accepted' });
  });

  it.each([
    [401, 'refused'],
    [403, 'refused'],
    [0, 'unreachable'],
    [500, 'failed'],
  ])('maps status %i to %s', async (status, verdict) => {
    const client = clientAnswering({ ok: false, status, code: `HTTP_${status}`, message: 'm' });
    await expect(verifyToken(client, 't')).resolves.toMatchObject({ verdict });
  });
});
