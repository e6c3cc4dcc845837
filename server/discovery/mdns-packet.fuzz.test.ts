/**
 * Fuzz of the mDNS packet path: random bytes, and valid announcements with bytes flipped, cut or
 * stretched, go through the decoder multicast-dns uses and then through sightingsInPacket and the
 * fleet's readers. Nothing may throw, and what comes out is bounded and free of control
 * characters. Hand-made hostile records (wrong types, floods, markup) run too. Seeded.
 */
import { describe, expect, it } from 'vitest';
import { seeded, type Rng } from '../testing/fuzz.ts';
import { sightingsInPacket, readTxtEntries } from './mdns-packet.ts';
import { dnsPacket, type DnsRecord } from './testing/wire.ts';
import { readCockpitTxt, readDaemonTxt } from './txt-record.ts';

// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/;

function announcement(name: string, txt: string[]): DnsRecord[] {
  const fqdn = `${name}._robot-cockpit._tcp.local`;
  return [
    { name: '_robot-cockpit._tcp.local', type: 'PTR', ttl: 120, data: fqdn },
    { name: fqdn, type: 'SRV', ttl: 120, data: { port: 8097, target: 'desk.local' } },
    { name: fqdn, type: 'TXT', ttl: 120, data: txt },
    { name: 'desk.local', type: 'A', ttl: 120, data: '192.168.1.20' },
  ];
}

const VALID = dnsPacket.encode({ type: 'response', answers: announcement('Desk', ['name=Desk', 'kind=desktop', 'version=1.0.0']) });

function mutate(rng: Rng, base: Buffer): Buffer {
  const bytes = Buffer.from(base);
  const roll = rng();
  if (roll < 0.4) {
    for (let i = 0; i < 1 + Math.floor(rng() * 8); i += 1) bytes[Math.floor(rng() * bytes.length)] = Math.floor(rng() * 256);
    return bytes;
  }
  if (roll < 0.7) return bytes.subarray(0, Math.floor(rng() * bytes.length));
  const extra = Buffer.from(Array.from({ length: Math.floor(rng() * 600) }, () => Math.floor(rng() * 256)));
  return Buffer.concat([bytes, extra]);
}

function checkOutput(packet: unknown): void {
  for (const s of sightingsInPacket(packet)) {
    expect(s.port).toBeGreaterThanOrEqual(1);
    expect(s.addresses.length).toBeLessThanOrEqual(8);
    expect(Object.keys(s.txt).length).toBeLessThanOrEqual(32);
    for (const read of [readCockpitTxt(s.txt), readDaemonTxt(s.txt)]) {
      for (const value of [read.name, read.kind, read.version]) if (value !== null) expect(value).not.toMatch(CONTROL);
    }
  }
}

describe('mDNS packet parsing under fuzz', () => {
  it('survives random bytes and mutated announcements', () => {
    const rng = seeded(27);
    let decoded = 0;
    for (let i = 0; i < 4000; i += 1) {
      const buffer =
        rng() < 0.3 ? Buffer.from(Array.from({ length: Math.floor(rng() * 512) }, () => Math.floor(rng() * 256))) : mutate(rng, VALID);
      let packet: unknown;
      try {
        packet = dnsPacket.decode(buffer);
      } catch {
        continue; // multicast-dns drops what does not decode (logged as a warning, at debug)
      }
      decoded += 1;
      checkOutput(packet);
    }
    expect(decoded).toBeGreaterThan(100);
  });

  it('survives decoded packets of the wrong shape', () => {
    const hostile: unknown[] = [
      null,
      42,
      'packet',
      { answers: 'nope' },
      { answers: [null, 1, 'x', { name: 5, type: 'PTR', ttl: 1 }] },
      { answers: [{ name: '_robot-cockpit._tcp.local', type: 'PTR', ttl: 120, data: { not: 'a name' } }] },
      { answers: [{ name: '_robot-cockpit._tcp.local', type: 'PTR', ttl: 120, data: 'x._robot-cockpit._tcp.local' }, { name: 'x._robot-cockpit._tcp.local', type: 'SRV', ttl: 1, data: { port: 'eighty', target: [] } }] },
      { answers: [{ name: '_robot-cockpit._tcp.local', type: 'PTR', ttl: 120, data: 'x._robot-cockpit._tcp.local' }, { name: 'x._robot-cockpit._tcp.local', type: 'SRV', ttl: 1, data: { port: 70000, target: 'x.local' } }] },
      { answers: [{ get name(): string { throw new Error('getter bomb'); }, type: 'PTR', ttl: 1 }] },
    ];
    for (const packet of hostile) expect(sightingsInPacket(packet)).toEqual([]);
  });

  it('bounds floods and oversized TXT records, and keeps markup as plain text to be escaped by the page', () => {
    const flood = Array.from({ length: 200 }, (_, i) => `k${i}=${'v'.repeat(200)}`);
    const packet = dnsPacket.decode(
      dnsPacket.encode({ type: 'response', answers: announcement('<img src=x onerror=alert(1)>\u0007', ['name=<b>bold</b>\u0000\u202e', ...flood]) }),
    );
    const [sighting] = sightingsInPacket(packet);
    expect(sighting).toBeDefined();
    expect(Object.keys(sighting?.txt ?? {}).length).toBeLessThanOrEqual(32);
    const read = readCockpitTxt(sighting?.txt ?? {});
    expect(read.name).toBe('<b>bold</b>');
    expect(readTxtEntries(42)).toEqual({});
    expect(readTxtEntries([Buffer.from('=novalue'), Buffer.from('KEY=1'), Buffer.from('key=2')])).toEqual({ key: '1' });
  });

  it('treats a TTL of 0 as a goodbye', () => {
    const answers = announcement('Desk', ['name=Desk']).map((r) => ({ ...r, ttl: 0 }));
    const [sighting] = sightingsInPacket(dnsPacket.decode(dnsPacket.encode({ type: 'response', answers })));
    expect(sighting?.ttl).toBe(0);
  });
});
