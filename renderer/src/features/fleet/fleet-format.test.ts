import { describe, expect, it } from 'vitest';
import type { FleetPeer } from '../../lib/api/fleet-api.ts';
import { healthUrl, peerOrigin, reachText, readPeerHealth, sortPeers, type PeerReach } from './fleet-format.ts';

const FP = Array.from({ length: 32 }, () => 'ab').join(':');

function peer(name: string, extra: Partial<FleetPeer> = {}): FleetPeer {
  return {
    id: name,
    source: 'manual',
    service: 'cockpit',
    name,
    kind: null,
    version: null,
    host: '192.168.1.9',
    port: 8097,
    httpsPort: 8098,
    fingerprint: null,
    fingerprintChange: null,
    lastSeen: null,
    ...extra,
  };
}

describe('fleet format', () => {
  it('reads a cockpit health body and cleans what it shows', () => {
    const health = readPeerHealth({
      ok: false,
      problems: { a: 'x', b: 'y' },
      version: '1.0.0',
      identity: { name: 'Desk\u202e<b>x</b>\u0000', kind: 'desktop', fingerprint: FP },
    });
    expect(health).toEqual({ ok: false, name: 'Desk <b>x</b>', kind: 'desktop', version: '1.0.0', fingerprint: FP.toUpperCase(), problems: 2 });
    expect(readPeerHealth(null)).toBeNull();
    expect(readPeerHealth({ ok: 'yes' })).toBeNull();
    expect(readPeerHealth({ ok: true, identity: { fingerprint: 'nope' } })?.fingerprint).toBeNull();
  });

  it('shows the invisible characters of a lookalike name in a health body as spaces, keeping emoji sequences', () => {
    const named = (name: string) => readPeerHealth({ ok: true, identity: { name } })?.name;
    expect(named('Kit\u200bchen')).toBe('Kit chen');
    expect(named('Kit\u2060\u00adchen')).toBe('Kit chen');
    expect(named('\u200fKitchen\ufeff')).toBe('Kitchen');
    expect(named('👨‍👩‍👧 home')).toBe('👨‍👩‍👧 home');
    expect(named('می‌خواهم')).toBe('می‌خواهم');
  });

  it('reaches a robot over HTTPS only from an HTTPS page, with IPv6 in brackets', () => {
    expect(peerOrigin(peer('a'), false)).toBe('http://192.168.1.9:8097');
    expect(peerOrigin(peer('a'), true)).toBe('https://192.168.1.9:8098');
    expect(peerOrigin(peer('a', { httpsPort: null }), true)).toBe('http://192.168.1.9:8097');
    expect(healthUrl(peer('a', { host: 'fe80::2' }), false)).toBe('http://[fe80::2]:8097/api/health');
  });

  it('puts robots that answer first, then by name', () => {
    const answers: PeerReach = { state: 'answers', health: { ok: true, name: null, kind: null, version: null, fingerprint: null, problems: 0 } };
    const rows = [
      { peer: peer('Alpha'), reach: { state: 'silent' } as PeerReach },
      { peer: peer('Zulu'), reach: answers },
      { peer: peer('Bravo'), reach: answers },
      { peer: peer('Charlie'), reach: { state: 'checking' } as PeerReach },
    ];
    expect(sortPeers(rows).map((r) => r.peer.name)).toEqual(['Bravo', 'Zulu', 'Charlie', 'Alpha']);
    expect(reachText(answers)).toBe('Answers · healthy');
    expect(reachText({ state: 'silent' })).toBe('Does not answer');
  });
});
