/**
 * Which senders are on this machine's link, over made-up interfaces; and a packet from off it,
 * over a stand-in socket, kept from bonjour-service's probe.
 */
import type { NetworkInterfaceInfo } from 'node:os';
import { afterEach, expect, it } from 'vitest';
import { createLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { bonjourTransport, type MdnsTransport } from './lan-discovery.ts';
import { INTERFACES_EVERY_MS, isOnLink, onLinkChecker } from './on-link.ts';
import { standInSocket } from './testing/stand-in-socket.ts';
import { dnsPacket } from './testing/wire.ts';

let transport: MdnsTransport | undefined;
afterEach(async () => {
  const t = transport;
  transport = undefined;
  if (t) await new Promise<void>((resolve) => t.destroy(resolve));
});

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

it('reads the interfaces once a second, not for every packet of a flood, and sees one come within the second', () => {
  let clock = 1_000_000;
  let reads = 0;
  let interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = { eth0: [v4('192.168.1.20', '255.255.255.0')] };
  const onLink = onLinkChecker(
    () => clock,
    () => ((reads += 1), interfaces),
  );
  for (let n = 0; n < 10_000; n += 1) expect(onLink(n % 2 ? '192.168.1.66' : '10.0.0.9')).toBe(n % 2 === 1);
  expect(reads).toBe(1);
  interfaces = { ...interfaces, wg0: [v4('10.0.0.1', '255.255.255.0')] };
  clock += INTERFACES_EVERY_MS;
  expect(onLink('10.0.0.9')).toBe(true);
  expect(reads).toBe(2);
});

it('keeps an answer from off this link from stopping the advertisement while it probes for its name', async () => {
  const { socket, sent } = standInSocket();
  const onLink = (address: string) => address.startsWith('192.168.1.');
  transport = bonjourTransport({ socket }, () => 0, onLink)(createLog({ level: 'error' }));
  const service = transport.publish({
    name: 'Desk robot',
    type: 'robot-cockpit',
    port: 8097,
    host: 'desk-robot.local',
    txt: {},
  });
  await eventually(() => sent.length > 0, { what: 'the first probe' });
  const claim = dnsPacket.encode({
    type: 'response',
    answers: [
      { name: 'Desk robot._robot-cockpit._tcp.local', type: 'SRV', ttl: 120, data: { port: 1, target: 'far.local' } },
    ],
  });
  socket.emit('message', claim, { address: '203.0.113.9', port: 5353 });
  await eventually(() => service.published, { what: 'the advertisement announced' });
});
