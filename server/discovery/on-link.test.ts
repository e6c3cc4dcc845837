/**
 * Which senders are on this machine's link, over made-up interfaces.
 */
import type { NetworkInterfaceInfo } from 'node:os';
import { expect, it } from 'vitest';
import { isOnLink } from './on-link.ts';

const v4 = (address: string, netmask: string): NetworkInterfaceInfo => ({
  address,
  netmask,
  family: 'IPv4',
  mac: '02:00:00:00:00:01',
  internal: false,
  cidr: null,
});

it('takes senders inside an interface subnet and IPv4 link-local ones, and no one else', () => {
  const interfaces = () => ({ eth0: [v4('192.168.1.20', '255.255.255.0')], wide: [v4('250.1.2.1', '255.0.0.0')] });
  expect(isOnLink('192.168.1.66', interfaces)).toBe(true);
  expect(isOnLink('250.200.7.9', interfaces)).toBe(true);
  expect(isOnLink('169.254.3.4', interfaces)).toBe(true);
  expect(isOnLink('192.168.2.66', interfaces)).toBe(false);
  expect(isOnLink('203.0.113.9', interfaces)).toBe(false);
});
