import { describe, expect, it } from 'vitest';
import { createCameraApi, withToken } from './camera-api.ts';

describe('camera api', () => {
  it('puts the token in the stream address, escaped, and nothing for a cookie session', () => {
    expect(withToken('/api/stream', 'a b&c')).toBe('/api/stream?token=a%20b%26c');
    expect(createCameraApi({ getToken: () => null }).streamUrl()).toBe('/api/stream');
  });

  it('fetches the snapshot with the bearer and returns the blob', async () => {
    const seen: RequestInit[] = [];
    const api = createCameraApi({
      getToken: () => 'tok',
      fetch: async (_input, init) => {
        seen.push(init ?? {});
        return new Response(new Uint8Array([0xff, 0xd8]), { status: 200, headers: { 'content-type': 'image/jpeg' } });
      },
    });
    const result = await api.snapshot();
    expect(result.ok && result.data.size).toBe(2);
    expect(seen[0]?.headers).toEqual({ authorization: 'Bearer tok' });
  });

  it('reports the cockpit refusal with its code', async () => {
    const api = createCameraApi({
      getToken: () => null,
      fetch: async () =>
        new Response(JSON.stringify({ error: 'the camera has no frame', code: 'CAMERA_NO_FRAME' }), { status: 503 }),
    });
    expect(await api.snapshot()).toMatchObject({ ok: false, status: 503, code: 'CAMERA_NO_FRAME' });
  });

  it('turns a failed fetch into a network failure', async () => {
    const api = createCameraApi({
      getToken: () => null,
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await api.snapshot()).toMatchObject({ ok: false, code: 'NETWORK' });
  });
});
