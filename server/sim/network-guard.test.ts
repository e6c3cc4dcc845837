import { describe, expect, it } from 'vitest';
import { guardRequest, isTrustedHost, isTrustedOrigin } from './network-guard.ts';

describe('local-network guard (as daemon 1.13)', () => {
  it('trusts IP literals, localhost and .local names as Host, nothing else', () => {
    for (const host of ['127.0.0.1', '192.168.1.7', '::1', 'localhost', 'tauri.localhost', 'reachy-mini.local', 'Reachy-Mini.LOCAL.']) {
      expect(isTrustedHost(host), host).toBe(true);
    }
    for (const host of ['robot.example', 'reachy-mini', 'localhost.example', '', null]) expect(isTrustedHost(host)).toBe(false);
  });

  it('trusts nearby origins: loopback, private, link-local, .local, webviews on localhost', () => {
    for (const origin of ['http://127.0.0.1:8097', 'https://10.1.2.3', 'http://172.20.0.1', 'http://192.168.1.20:5173', 'http://169.254.3.4', 'http://[::1]:3000', 'http://[fd00::1]', 'https://reachy-mini.local', 'tauri://localhost', 'capacitor://localhost']) {
      expect(isTrustedOrigin(origin), origin).toBe(true);
    }
    for (const origin of ['http://evil.example', 'http://8.8.8.8', 'tauri://evil', 'file:///x', 'null', 'http://172.32.0.1']) {
      expect(isTrustedOrigin(origin), origin).toBe(false);
    }
  });

  it('refuses an untrusted Host (400) and a foreign Origin on writes and sockets (403); reads and Origin-less requests pass', () => {
    expect(guardRequest({ host: 'robot.example:8000' }, 'GET')).toEqual({ status: 400, detail: 'Untrusted Host header' });
    expect(guardRequest({ host: '127.0.0.1:8000', origin: 'http://evil.example' }, 'POST')).toEqual({
      status: 403,
      detail: 'Cross-origin request rejected',
    });
    expect(guardRequest({ host: '127.0.0.1:8000', origin: 'http://evil.example' }, 'GET', true)?.status).toBe(403);
    expect(guardRequest({ host: '127.0.0.1:8000', origin: 'http://evil.example' }, 'GET')).toBeNull();
    expect(guardRequest({ host: '127.0.0.1:8000' }, 'POST')).toBeNull();
    expect(guardRequest({}, 'GET')).toEqual({ status: 400, detail: 'Untrusted Host header' });
  });
});
