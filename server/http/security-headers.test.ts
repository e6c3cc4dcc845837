import { describe, expect, it } from 'vitest';
import { createHostAllowlist, hostName } from './host-allowlist.ts';
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

describe('content security policy', () => {
  it('allows only same-origin scripts and forbids framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
});
