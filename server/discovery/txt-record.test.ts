/**
 * The advertisement's record encoding, on loopback only (no socket): bonjour-service builds the
 * records this cockpit announces, dns-packet encodes and decodes them as the wire would, and the
 * browser side reads them back.
 */
import { Service } from 'bonjour-service';
import { describe, expect, it } from 'vitest';
import { sightingsInPacket } from './mdns-packet.ts';
import { dnsPacket, type DnsRecord } from './testing/wire.ts';
import { COCKPIT_SERVICE, COCKPIT_TXT_KEYS, cockpitTxt, readCockpitTxt, readDaemonTxt } from './txt-record.ts';

const FP = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0').toUpperCase()).join(':');
const identity = { name: 'Desk robot', kind: 'desktop' as const, https_port: 8098, fingerprint: FP };

function announced(txt: Record<string, string>, name = 'Desk robot') {
  const service = new Service({ name, type: COCKPIT_SERVICE, port: 8097, host: 'desk-robot.local', txt }, () => {}, () => {});
  const records = service.records() as DnsRecord[];
  return dnsPacket.decode(dnsPacket.encode({ type: 'response', answers: records }));
}

describe('cockpit TXT record', () => {
  it('carries exactly name, kind, version, HTTPS port and fingerprint', () => {
    const txt = cockpitTxt(identity, '1.2.3');
    expect(Object.keys(txt)).toEqual([...COCKPIT_TXT_KEYS]);
    expect(txt).toEqual({ name: 'Desk robot', kind: 'desktop', version: '1.2.3', https_port: '8098', fp: FP });
  });

  it('round-trips through the wire format into a sighting', () => {
    const [sighting, ...rest] = sightingsInPacket(announced(cockpitTxt(identity, '1.2.3')));
    expect(rest).toEqual([]);
    expect(sighting).toMatchObject({ service: 'cockpit', instance: 'Desk robot', host: 'desk-robot.local', port: 8097 });
    expect(readCockpitTxt(sighting?.txt ?? {})).toEqual({
      name: 'Desk robot',
      kind: 'desktop',
      version: '1.2.3',
      httpsPort: 8098,
      fingerprint: FP,
    });
  });

  it('advertises empty values, not made-up ones, without HTTPS', () => {
    const txt = cockpitTxt({ ...identity, https_port: null, fingerprint: null }, '1.2.3');
    const [sighting] = sightingsInPacket(announced(txt));
    expect(readCockpitTxt(sighting?.txt ?? {})).toMatchObject({ httpsPort: null, fingerprint: null });
  });

  it("reads a Reachy Mini daemon's own keys", () => {
    const txt = { robot_name: 'reachy_mini', version: '1.11.0', model: 'Reachy Mini Wireless', ws_path: '/ws/sdk' };
    expect(readDaemonTxt(txt)).toEqual({ name: 'reachy_mini', kind: 'Reachy Mini Wireless', version: '1.11.0', httpsPort: null, fingerprint: null });
  });

  it('cleans what a hostile peer sends: control characters, bidi overrides, huge values, bad ports', () => {
    const read = readCockpitTxt({
      name: 'evil\u0000\u001b[31m<script>alert(1)</script>\u202e' + 'x'.repeat(500),
      https_port: '99999',
      fp: 'not a fingerprint',
      version: '\n\n',
    });
    expect(read.name).toBe('evil [31m<script>alert(1)</script> ' + 'x'.repeat(28));
    expect([...(read.name ?? '')].length).toBeLessThanOrEqual(63);
    expect(read).toMatchObject({ httpsPort: null, fingerprint: null, version: null });
  });
});
