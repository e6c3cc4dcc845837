import { describe, expect, it } from 'vitest';
import type { HttpClient, RequestOptions } from '../../lib/api/http-client.ts';
import { createPushApi, readSettings } from './push-api.ts';

function fakeHttp(answers: Record<string, unknown>): HttpClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async request<T>(path: string, options: RequestOptions = {}) {
      calls.push(`${options.method ?? 'GET'} ${path} ${JSON.stringify(options.body ?? null)}`);
      return { ok: true, status: 200, data: answers[path] as T };
    },
  };
}

describe('push api', () => {
  it('reads the settings, filling what is missing', () => {
    expect(
      readSettings({ subject: 'mailto:a@b.c', kinds: { camera: false }, subscriptions: { total: 2, yours: 1 } }),
    ).toEqual({
      subject: 'mailto:a@b.c',
      kinds: { daemon: true, camera: false, stop: true, agent: true, platform: true },
      subscriptions: { total: 2, yours: 1 },
    });
    expect(readSettings({ kinds: {} })).toBeNull();
  });

  it('calls the console routes and checks the answers', async () => {
    const http = fakeHttp({
      '/api/console/push/key': { publicKey: 'BKEY' },
      '/api/console/push/test': { sent: 2, pruned: 1, failed: 0 },
      '/api/console/push/settings': { nonsense: true },
    });
    const api = createPushApi(http);
    expect(await api.key()).toEqual({ ok: true, status: 200, data: 'BKEY' });
    expect(await api.test()).toEqual({ ok: true, status: 200, data: { sent: 2, pruned: 1, failed: 0 } });
    expect(await api.settings()).toMatchObject({ ok: false, code: 'BAD_ANSWER' });
    await api.subscribe({ endpoint: 'https://p/1', keys: { p256dh: 'x', auth: 'y' } });
    await api.unsubscribe('https://p/1');
    await api.saveSettings({ kinds: { stop: false } });
    expect(http.calls.slice(3)).toEqual([
      'POST /api/console/push/subscribe {"subscription":{"endpoint":"https://p/1","keys":{"p256dh":"x","auth":"y"}}}',
      'POST /api/console/push/unsubscribe {"endpoint":"https://p/1"}',
      'PUT /api/console/push/settings {"kinds":{"stop":false}}',
    ]);
  });
});
