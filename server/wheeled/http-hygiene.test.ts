/**
 * On the wheeled server: the same security headers and Host allowlist as the desktop server, on HTTP and on
 * socket upgrades, so a page on a rebinding attacker's name cannot reach the rover either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteRequest } from '../testing/cockpit-harness.ts';
import { closeCode, startWheeledHarness, type WheeledHarness } from './testing/wheeled-harness.ts';

let h: WheeledHarness;
beforeAll(async () => {
  h = await startWheeledHarness();
});
afterAll(() => h.close());

describe('the wheeled server: HTTP hygiene', () => {
  it('sends the security headers on the shell, the API and its errors', async () => {
    for (const [path, token] of [
      ['/', null],
      ['/api/health', null],
      ['/api/state', undefined],
      ['/api/state', null],
    ] as const) {
      const res = await h.call(path, { token });
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it('refuses a foreign Host even on public routes and with a valid key', async () => {
    for (const headers of [
      { host: 'rebound.example' },
      { host: 'rebound.example', authorization: `Bearer ${h.serviceToken}` },
    ] as Record<string, string>[]) {
      const res = await remoteRequest(`${h.url}/api/health`, { headers, localAddress: '127.0.0.1' });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'AUTH_FORBIDDEN' });
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    }
    // The allowlist ignores case, the port and a trailing dot; loopback names pass.
    for (const host of ['LOCALHOST', `127.0.0.1:${h.server.port}`, 'localhost.']) {
      expect(
        (await remoteRequest(`${h.url}/api/health`, { headers: { host }, localAddress: '127.0.0.1' })).status,
      ).toBe(200);
    }
  });

  it('closes socket upgrades from a foreign Host with 4403 before the credential check', async () => {
    const token = encodeURIComponent(h.serviceToken);
    for (const path of ['/ws/chat', '/ws/voice', '/ws/state']) {
      expect(await closeCode(`${h.wsUrl}${path}?token=${token}`, { headers: { host: 'rebound.example' } }), path).toBe(
        4403,
      );
      expect(await closeCode(`${h.wsUrl}${path}?token=${token}`), path).toBe('open');
    }
  });
});
