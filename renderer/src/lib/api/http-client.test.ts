import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from './http-client.ts';

function answer(status: number, body: unknown) {
  return vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(body), { status }),
  );
}

describe('createHttpClient', () => {
  it('sends the stored token as a bearer and returns the data', async () => {
    const fetch = answer(200, { loopHz: 15 });
    const client = createHttpClient({ getToken: () => 'secret', fetch });
    await expect(client.request('/api/state')).resolves.toEqual({ ok: true, status: 200, data: { loopHz: 15 } });
    const headers = fetch.mock.calls[0]![1]!.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer secret');
  });

  it('reports a refused stored token to the session', async () => {
    const onUnauthorized = vi.fn();
    const client = createHttpClient({
      getToken: () => 'old',
      onUnauthorized,
      fetch: answer(401, { error: 'no', code: 'AUTH_REQUIRED' }),
    });
    const result = await client.request('/api/state');
    expect(result).toMatchObject({ ok: false, status: 401, code: 'AUTH_REQUIRED' });
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('does not sign out when a candidate token is refused', async () => {
    const onUnauthorized = vi.fn();
    const client = createHttpClient({ getToken: () => null, onUnauthorized, fetch: answer(401, {}) });
    await client.request('/api/state', { token: 'typed' });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('turns a failed fetch into a NETWORK failure', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const client = createHttpClient({ getToken: () => null, fetch });
    await expect(client.request('/api/health')).resolves.toMatchObject({ ok: false, status: 0, code: 'NETWORK' });
  });

  it('sends a JSON body', async () => {
    const fetch = answer(200, {});
    const client = createHttpClient({ getToken: () => null, fetch });
    await client.request('/api/x', { method: 'POST', body: { a: 1 } });
    const init = fetch.mock.calls[0]![1]!;
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });
});
