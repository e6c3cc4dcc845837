import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../auth/testing/fake-clock.ts';
import { createHostAllowlist, hostName, REREAD_MS } from './host-allowlist.ts';
import { CONTENT_SECURITY_POLICY } from './security-headers.ts';

describe('host allowlist', () => {
  const hosts = createHostAllowlist({
    identity: { hostNames: ['localhost', 'robot', 'robot.local'], addresses: ['127.0.0.1', '::1', '192.168.1.20'] },
    origin: 'https://tiny.example.org',
  });

  it('answers to loopback, its own names and addresses, and the configured origin', () => {
    for (const host of ['localhost:8097', '127.0.0.1', '[::1]:8098', 'robot.local:8098', '192.168.1.20:8097', 'tiny.example.org', 'ROBOT.LOCAL.']) {
      expect(hosts.allows(host), host).toBe(true);
    }
  });

  it('refuses foreign names (DNS rebinding) and a missing Host', () => {
    for (const host of ['attacker.example', 'robot.local.attacker.example', '10.0.0.9', undefined]) {
      expect(hosts.allows(host), String(host)).toBe(false);
    }
  });

  it('answers to the .local name discovery advertises, only while it is advertised', () => {
    let names: string[] = [];
    const lan = createHostAllowlist({ identity: { hostNames: ['localhost'], addresses: ['127.0.0.1'] }, extraNames: () => names });
    expect(lan.allows('desk-robot.local:8097')).toBe(false);
    names = ['desk-robot.local'];
    expect(lan.allows('Desk-Robot.local:8097')).toBe(true);
    expect(lan.allows('other.local')).toBe(false);
  });

  it('reads names out of Host headers', () => {
    expect(hostName('[::1]:8097')).toBe('::1');
    expect(hostName('Robot.Local:80')).toBe('robot.local');
  });
});

describe('host allowlist after the machine’s addresses change', () => {
  it('re-reads them on a miss, at most once per period', () => {
    const clock = createFakeClock();
    let addresses = ['127.0.0.1', '192.168.1.20'];
    let reads = 0;
    const hosts = createHostAllowlist({
      clock,
      identity: () => {
        reads += 1;
        return { hostNames: ['localhost'], addresses };
      },
    });
    expect(reads).toBe(1);
    addresses = ['127.0.0.1', '192.168.1.77'];
    // Inside the period a miss costs no scan, however many arrive.
    for (let i = 0; i < 50; i += 1) expect(hosts.allows('192.168.1.77:8097')).toBe(false);
    expect(reads).toBe(1);
    clock.advance(REREAD_MS);
    expect(hosts.allows('192.168.1.77:8097')).toBe(true);
    expect(reads).toBe(2);
    // The old address is gone with the re-read; known names never trigger one.
    expect(hosts.allows('192.168.1.20')).toBe(false);
    expect(hosts.allows('localhost:8097')).toBe(true);
    expect(reads).toBe(2);
  });

  it('refuses malformed Host headers outright', () => {
    const hosts = createHostAllowlist({ identity: { hostNames: ['localhost'], addresses: ['127.0.0.1'] } });
    for (const header of ['[::1', 'a b', 'localhost:99999', '']) expect(hosts.allows(header), header).toBe(false);
  });
});

describe('content security policy', () => {
  it('allows only same-origin scripts and forbids framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
});
