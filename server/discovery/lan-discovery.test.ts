/**
 * The mDNS side with a stand-in transport (no socket, no traffic): what is published, hostile and
 * malformed responses logged at debug and never thrown, our own echo ignored, goodbyes, expiry on
 * the injected clock, the cap on how many robots are kept, a new announcement when the machine's
 * addresses change, senders off the link ignored, renames one at a time, and a socket failure
 * reported.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createLog, type LogRecord } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createLanDiscovery, MAX_SIGHTINGS, type LanDiscoveryOptions, type MdnsSocket, type MdnsTransport } from './lan-discovery.ts';
import { dnsPacket, type DnsRecord } from './testing/wire.ts';

function announcement(name: string, ttl = 120): unknown {
  const fqdn = `${name}._robot-cockpit._tcp.local`;
  const answers: DnsRecord[] = [
    { name: '_robot-cockpit._tcp.local', type: 'PTR', ttl, data: fqdn },
    { name: fqdn, type: 'SRV', ttl, data: { port: 8097, target: 'peer.local' } },
    { name: fqdn, type: 'TXT', ttl, data: [`name=${name}`, 'kind=desktop'] },
    { name: 'peer.local', type: 'A', ttl, data: '192.168.1.30' },
  ];
  return dnsPacket.decode(dnsPacket.encode({ type: 'response', answers }));
}

function rig(extra: Pick<LanDiscoveryOptions, 'addresses' | 'onLink'> = {}) {
  const socket = Object.assign(new EventEmitter(), { queries: 0, query: () => (socket.queries += 1) });
  const publishedConfigs: unknown[] = [];
  const service = Object.assign(new EventEmitter(), { published: false, stop: (done: () => void) => done() });
  const transport: MdnsTransport = {
    socket: socket as unknown as MdnsSocket,
    publish(config) {
      publishedConfigs.push(config);
      return service;
    },
    destroy: (done) => done(),
  };
  const records: LogRecord[] = [];
  let clock = 1_000_000;
  const lan = createLanDiscovery({
    advertisement: () => ({ name: 'Desk robot', host: 'desk-robot.local', port: 8097, txt: { name: 'Desk robot' } }),
    log: createLog({ level: 'debug', sink: (r) => records.push(r) }),
    now: () => clock,
    queryIntervalMs: 1000,
    transport: () => transport,
    ...extra,
  });
  return { lan, socket, service, publishedConfigs, records, advance: (ms: number) => (clock += ms) };
}

describe('LAN discovery', () => {
  it('publishes the advertisement and says it is on once announced', async () => {
    const r = rig();
    r.lan.start();
    expect(r.publishedConfigs).toEqual([
      { name: 'Desk robot', type: 'robot-cockpit', port: 8097, host: 'desk-robot.local', txt: { name: 'Desk robot' } },
    ]);
    expect(r.socket.queries).toBe(1);
    expect(r.lan.status().on).toBe(false);
    r.service.published = true;
    expect(r.lan.status()).toEqual({ on: true, detail: 'Desk robot on desk-robot.local', localName: 'desk-robot.local' });
    await r.lan.stop();
  });

  it('keeps peers, ignores its own echo, forgets on goodbye and after three silent rounds', async () => {
    const r = rig();
    r.lan.start();
    r.socket.emit('response', announcement('Desk robot'));
    r.socket.emit('response', announcement('Other'));
    expect(r.lan.sightings().map((s) => s.instance)).toEqual(['Other']);
    r.socket.emit('response', announcement('Other', 0));
    expect(r.lan.sightings()).toEqual([]);
    r.socket.emit('response', announcement('Other'));
    r.advance(3001);
    expect(r.lan.sightings()).toEqual([]);
    await r.lan.stop();
  });

  it('never throws on hostile responses, and logs dropped packets at debug', async () => {
    const r = rig();
    r.lan.start();
    for (const packet of [null, 'x', { answers: [{ name: 1 }] }, { answers: 'many' }, announcement('<b>x</b>\u0007')]) {
      expect(() => r.socket.emit('response', packet)).not.toThrow();
    }
    r.socket.emit('warning', new Error('Header must be 12 bytes'));
    expect(r.records).toContainEqual(expect.objectContaining({ level: 'debug', msg: 'mDNS packet dropped' }));
    expect(r.lan.sightings()).toHaveLength(1);
    await r.lan.stop();
  });

  it('keeps at most MAX_SIGHTINGS robots, dropping the one heard from longest ago', async () => {
    const r = rig();
    r.lan.start();
    for (let i = 0; i <= MAX_SIGHTINGS; i += 1) r.socket.emit('response', announcement(`flood-${i}`));
    const names = r.lan.sightings().map((s) => s.instance);
    expect(names).toHaveLength(MAX_SIGHTINGS);
    expect(names).not.toContain('flood-0');
    expect(r.records.some((x) => x.level === 'debug' && /too many robots/.test(x.msg))).toBe(true);
    await r.lan.stop();
  });

  it("announces again, with the new addresses, once the machine's addresses change", async () => {
    let addresses = ['192.168.1.20'];
    const r = rig({ addresses: () => addresses });
    r.lan.start();
    r.lan.query();
    addresses = ['192.168.1.21'];
    r.lan.query();
    await eventually(() => r.publishedConfigs.length >= 2, { what: 'the second announcement' });
    // Once, for the change only: the query before it, with the same addresses, announced nothing.
    expect(r.publishedConfigs).toHaveLength(2);
    await r.lan.stop();
  });

  it('drops announcements from senders off this link', async () => {
    const r = rig({ onLink: (address) => address.startsWith('192.168.1.') });
    r.lan.start();
    r.socket.emit('response', announcement('Far away'), { address: '203.0.113.9', port: 5353 });
    r.socket.emit('response', announcement('Next door'), { address: '192.168.1.30', port: 5353 });
    expect(r.lan.sightings().map((s) => s.instance)).toEqual(['Next door']);
    expect(r.records).toContainEqual(expect.objectContaining({ level: 'debug', msg: 'mDNS response from off this link dropped' }));
    await r.lan.stop();
  });

  it('ends with one advertisement, under the last name, when renames come faster than goodbyes', async () => {
    const socket = Object.assign(new EventEmitter(), { query: () => {} });
    const services: { name: string; stopped: boolean }[] = [];
    const goodbyes: (() => void)[] = [];
    const transport: MdnsTransport = {
      socket: socket as unknown as MdnsSocket,
      publish(config) {
        const entry = { name: config.name, stopped: false };
        services.push(entry);
        return Object.assign(new EventEmitter(), {
          published: true,
          // The goodbye goes out, and the stop completes, only when the test lets it.
          stop: (done: () => void) => goodbyes.push(() => ((entry.stopped = true), done())),
        });
      },
      destroy: (done) => done(),
    };
    let name = 'First';
    const lan = createLanDiscovery({
      advertisement: () => ({ name, host: 'robot.local', port: 8097, txt: {} }),
      log: createLog({ level: 'error' }),
      now: () => 0,
      transport: () => transport,
    });
    lan.start();
    name = 'Second';
    const second = lan.republish();
    name = 'Third';
    const third = lan.republish();
    let settled = false;
    void Promise.all([second, third]).then(() => (settled = true));
    while (!settled) {
      await eventually(() => goodbyes.length > 0 || settled, { what: 'a goodbye to let out, or both renames done' });
      goodbyes.shift()?.();
    }
    expect(services.filter((s) => !s.stopped).map((s) => s.name)).toEqual(['Third']);
    expect(lan.status().detail).toBe('Third on robot.local');
  });

  it('reports a failed socket instead of stopping the cockpit', async () => {
    const r = rig();
    r.lan.start();
    r.socket.emit('error', new Error('bind EACCES'));
    expect(r.lan.status()).toMatchObject({ on: false, detail: 'mDNS socket failed: bind EACCES' });
    expect(r.lan.browsing()).toBe(false);
    await r.lan.stop();
  });
});
