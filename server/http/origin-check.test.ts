import { describe, expect, it } from 'vitest';
import { checkOrigin } from './origin-check.ts';

const base = { host: 'robot.local:8097', secure: false, allowedOrigins: [], viaBearer: false };

describe('checkOrigin', () => {
  it('accepts the same origin as the Host header, with the connection scheme', () => {
    expect(checkOrigin({ ...base, origin: 'http://robot.local:8097' })).toEqual({ ok: true });
    expect(checkOrigin({ ...base, origin: 'http://ROBOT.local:8097' })).toEqual({ ok: true });
    expect(
      checkOrigin({ ...base, host: 'robot.local:8098', secure: true, origin: 'https://robot.local:8098' }).ok,
    ).toBe(true);
    expect(checkOrigin({ ...base, host: 'robot.local:443', secure: true, origin: 'https://robot.local' }).ok).toBe(
      true,
    );
    expect(checkOrigin({ ...base, host: '[::1]:8097', origin: 'http://[::1]:8097' }).ok).toBe(true);
  });

  it('refuses another host, port or scheme', () => {
    for (const origin of [
      'http://evil.example',
      'http://robot.local:8098',
      'https://robot.local:8097',
      'http://robot.local',
    ]) {
      const decision = checkOrigin({ ...base, origin });
      expect(decision).toEqual({ ok: false, reason: 'cross-origin control refused' });
    }
  });

  it('accepts origins listed in ROBOT_ORIGIN', () => {
    const allowedOrigins = ['https://robot.example.com'];
    expect(checkOrigin({ ...base, allowedOrigins, origin: 'https://robot.example.com' }).ok).toBe(true);
    expect(checkOrigin({ ...base, allowedOrigins, origin: 'https://robot.example.com:444' }).ok).toBe(false);
  });

  it('refuses Origin: null and malformed origins, even for bearer requests', () => {
    for (const origin of ['null', 'not a url', 'file:///etc/passwd', 'chrome-extension://abc']) {
      expect(checkOrigin({ ...base, viaBearer: true, origin }).ok).toBe(false);
    }
  });

  it('accepts a missing Origin only for bearer-authenticated requests', () => {
    expect(checkOrigin({ ...base, origin: undefined, viaBearer: true })).toEqual({ ok: true });
    expect(checkOrigin({ ...base, origin: undefined }).ok).toBe(false);
    expect(checkOrigin({ ...base, origin: '' }).ok).toBe(false);
  });

  it('refuses when the Host header is missing or tries to smuggle a different authority', () => {
    expect(checkOrigin({ ...base, host: undefined, origin: 'http://robot.local:8097' }).ok).toBe(false);
    expect(checkOrigin({ ...base, host: 'evil.example@robot.local:8097', origin: 'http://robot.local:8097' }).ok).toBe(
      false,
    );
  });
});
