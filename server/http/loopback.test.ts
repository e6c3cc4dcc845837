import { describe, expect, it } from 'vitest';
import { isLocalRequest, isLoopbackHost } from './loopback.ts';

const local = { peer: '127.0.0.1', host: 'localhost:8097', headers: {} };

describe('isLocalRequest', () => {
  it('accepts loopback peers with a loopback Host and no proxy headers', () => {
    for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.1']) {
      expect(isLocalRequest({ ...local, peer })).toBe(true);
    }
    for (const host of ['localhost', 'LOCALHOST:8097', '127.0.0.1', '127.0.0.1:1', '[::1]', '[::1]:8097']) {
      expect(isLocalRequest({ ...local, host })).toBe(true);
    }
  });

  it('refuses other peers', () => {
    for (const peer of [undefined, '', '192.168.1.20', '127.0.0.2', '::ffff:192.168.1.20', 'fe80::1']) {
      expect(isLocalRequest({ ...local, peer })).toBe(false);
    }
  });

  it('refuses a non-loopback Host even from a loopback peer (DNS rebinding, tunnels)', () => {
    for (const host of [
      undefined,
      '',
      'robot.local',
      'localhost.evil.com',
      'evil.com:80',
      '127.0.0.1.nip.io',
      '::1',
      '[::2]:80',
      'localhost:',
      'localhost:abc',
      '127.0.0.1:8097:1',
    ]) {
      expect(isLocalRequest({ ...local, host })).toBe(false);
    }
  });

  it('refuses when any proxy client-address header is present, whatever its case or value', () => {
    for (const name of ['X-Forwarded-For', 'forwarded', 'X-Real-IP', 'CF-Connecting-IP', 'cf-ray']) {
      expect(isLocalRequest({ ...local, headers: { [name]: '' } })).toBe(false);
      expect(isLocalRequest({ ...local, headers: { [name]: ['1.2.3.4'] } })).toBe(false);
    }
    expect(isLocalRequest({ ...local, headers: { 'x-forwarded-for': undefined, accept: '*/*' } })).toBe(true);
  });
});

describe('isLoopbackHost', () => {
  it('accepts only the three loopback names with an optional numeric port', () => {
    expect(isLoopbackHost('localhost:65535')).toBe(true);
    expect(isLoopbackHost('[::1]x')).toBe(false);
  });
});
