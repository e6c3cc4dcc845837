/**
 * A flood of mDNS packets over a stand-in socket (no traffic), on the injected clock: only a
 * second's budget of them is decoded and read, the rest are counted, and the next second's
 * packets are read again. Work is counted in responses read, never timed.
 */
import { afterEach, expect, it } from 'vitest';
import { createLog, type LogRecord } from '../log.ts';
import { bonjourTransport, type MdnsTransport } from './lan-discovery.ts';
import { MAX_PACKET_BYTES, PACKETS_PER_SECOND } from './packet-budget.ts';
import { standInSocket } from './testing/stand-in-socket.ts';
import { dnsPacket, type DnsRecord } from './testing/wire.ts';

let transport: MdnsTransport | undefined;
afterEach(async () => {
  const t = transport;
  transport = undefined;
  if (t) await new Promise<void>((resolve) => t.destroy(resolve));
});

function announcement(name: string, txt: string[] = []): Buffer {
  const fqdn = `${name}._robot-cockpit._tcp.local`;
  const answers: DnsRecord[] = [
    { name: '_robot-cockpit._tcp.local', type: 'PTR', ttl: 120, data: fqdn },
    { name: fqdn, type: 'SRV', ttl: 120, data: { port: 8097, target: 'peer.local' } },
    { name: fqdn, type: 'TXT', ttl: 120, data: txt },
    { name: 'peer.local', type: 'A', ttl: 120, data: '192.168.1.30' },
  ];
  return dnsPacket.encode({ type: 'response', answers });
}

it('reads a budget of packets a second, counts the rest dropped, and reads again the next second', () => {
  const { socket } = standInSocket();
  const records: LogRecord[] = [];
  let clock = 1_000_000;
  transport = bonjourTransport(
    { socket },
    () => clock,
    () => true,
  )(createLog({ level: 'debug', sink: (r) => records.push(r) }));
  let read = 0;
  transport.socket.on('response', () => (read += 1));
  const sender = { address: '192.168.1.30', port: 5353 };
  for (let n = 0; n < 10 * PACKETS_PER_SECOND; n += 1) socket.emit('message', announcement(`flood-${n}`), sender);
  expect(read).toBe(PACKETS_PER_SECOND);

  clock += 1000;
  socket.emit('message', announcement('Desk robot'), sender);
  expect(read).toBe(PACKETS_PER_SECOND + 1);
  expect(records).toContainEqual(
    expect.objectContaining({
      level: 'debug',
      msg: 'mDNS packets past the budget were dropped unread',
      dropped: 9 * PACKETS_PER_SECOND,
    }),
  );
});

it('reads no packet longer than an mDNS packet may be', () => {
  const { socket } = standInSocket();
  transport = bonjourTransport(
    { socket },
    () => 0,
    () => true,
  )(createLog({ level: 'error' }));
  const read: unknown[] = [];
  transport.socket.on('response', (packet) => read.push(packet));
  const sender = { address: '192.168.1.30', port: 5353 };
  const long = announcement(
    'Long',
    Array.from({ length: 40 }, (_, n) => `k${n}=${'x'.repeat(240)}`),
  );
  expect(long.length).toBeGreaterThan(MAX_PACKET_BYTES);
  socket.emit('message', long, sender);
  socket.emit('message', announcement('Desk robot'), sender);
  expect(read).toHaveLength(1);
});
