import { describe, expect, it } from 'vitest';
import { remoteAddress } from './cockpit-view.ts';

describe('remoteAddress', () => {
  const lan = (host: string, port: number) => (host === '0.0.0.0' ? `http://192.168.1.20:${port}` : null);

  it('prefers the HTTPS address phones can use passkeys on', () => {
    expect(remoteAddress({ remoteUrl: () => 'https://robot.local:8098', port: 8097 }, '0.0.0.0', lan)).toBe(
      'https://robot.local:8098',
    );
  });

  it('falls back to the LAN address, and to nothing on a loopback-only cockpit', () => {
    expect(remoteAddress({ remoteUrl: () => undefined, port: 8097 }, '0.0.0.0', lan)).toBe('http://192.168.1.20:8097');
    expect(remoteAddress({ remoteUrl: () => undefined, port: 8097 }, '127.0.0.1', lan)).toBeUndefined();
  });
});
