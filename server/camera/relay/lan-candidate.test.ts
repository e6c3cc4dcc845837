import { describe, expect, it } from 'vitest';
import { isLanCandidate } from './lan-candidate.ts';

const candidate = (address: string) => `candidate:842163049 1 udp 1677729535 ${address} 53421 typ host generation 0`;

describe('the browser candidates the relay takes', () => {
  it('takes LAN, link-local and loopback addresses', () => {
    for (const address of [
      '192.168.1.20',
      '10.0.0.7',
      '172.16.4.2',
      '100.100.1.1',
      '127.0.0.1',
      '192.0.2.2',
      'fe80::1c2b:3dff:fe4e:5f60',
      'fd00::2',
      '::1',
    ])
      expect([address, isLanCandidate(candidate(address))]).toEqual([address, true]);
  });

  it('skips internet addresses, names to resolve, mDNS names and what is not a candidate', () => {
    for (const address of [
      '8.8.8.8',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      'example.com',
      '1f3a9c2e-7d41-4b8e-9c3f.local',
    ])
      expect([address, isLanCandidate(candidate(address))]).toEqual([address, false]);
    expect(isLanCandidate('')).toBe(false);
    expect(isLanCandidate('candidate:1 1 udp')).toBe(false);
  });
});
