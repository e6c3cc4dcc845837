/**
 * The fleet: robots seen on the LAN plus robots added by address, with the fingerprint memory.
 * Live health is not read here: the owner's browser reads each robot's public /api/health, so
 * the page shows what that browser can actually reach.
 */
import { isIP } from 'node:net';
import type { FleetPeer } from '../contract/discovery.ts';
import { AppError, badRequest } from '../errors.ts';
import type { Log } from '../log.ts';
import type { JsonDocument } from '../store/json-document.ts';
import { MAX_MANUAL_PEERS, withSighting, withTrusted, type FleetRecord, type ManualPeer } from './fleet-store.ts';
import type { TimedSighting } from './lan-discovery.ts';
import { cleanNetworkText, localHostLabel, ROBOT_NAME_MAX } from './network-text.ts';
import { isOnLink } from './on-link.ts';
import { manualPeerId, parsePeerHost, shortHash } from './peer-address.ts';
import { readCockpitTxt, readDaemonTxt } from './txt-record.ts';

export const DEFAULT_PEER_PORT = 8097;
export const DEFAULT_PEER_HTTPS_PORT = 8098;

export function lanPeerId(s: Pick<TimedSighting, 'service' | 'instance'>): string {
  return `lan-${shortHash(`${s.service}\u0000${s.instance.toLowerCase()}`)}`;
}

/** A port, the fallback when omitted, and null only where `nullable` (a robot without HTTPS). */
function parsePort(raw: unknown, field: string, fallback: number, nullable = false): number | null {
  if (raw === undefined) return fallback;
  if (raw === null && nullable) return null;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > 65535) throw badRequest(`${field} must be a port 1-65535`);
  return raw;
}

export function parseFingerprint(raw: unknown): string {
  if (typeof raw !== 'string' || !/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){31}$/.test(raw))
    throw badRequest('fingerprint must be a SHA-256 fingerprint such as AB:CD:…');
  return raw.toUpperCase();
}

export interface Fleet {
  peers(): FleetPeer[];
  /** Records a LAN sighting's fingerprint (called for every mDNS sighting). */
  sighted(sighting: TimedSighting): void;
  add(input: { host?: unknown; port?: unknown; httpsPort?: unknown }): Promise<FleetPeer>;
  remove(id: string): Promise<void>;
  /** A fingerprint the owner's browser read from the peer's /api/health. */
  recordFingerprint(id: string, fingerprint: string): Promise<FleetPeer>;
  trust(id: string): Promise<FleetPeer>;
}

export function createFleet(options: {
  store: JsonDocument<FleetRecord>;
  sightings: () => TimedSighting[];
  now: () => number;
  log: Log;
  /** Whether an address is on this machine's link (isOnLink); tests pass their own. */
  onLink?: (address: string) => boolean;
}): Fleet {
  const { store, log } = options;
  const onLink = options.onLink ?? ((address: string) => isOnLink(address));
  const iso = (ms: number) => new Date(ms).toISOString();

  const lanPeer = (s: TimedSighting): FleetPeer => {
    const txt = s.service === 'cockpit' ? readCockpitTxt(s.txt) : readDaemonTxt(s.txt);
    const instance = cleanNetworkText(s.instance, ROBOT_NAME_MAX);
    const name = txt.name ?? (instance || 'unnamed robot');
    const rawName = s.service === 'cockpit' ? s.txt['name'] : s.txt['robot_name'];
    if (rawName !== undefined && rawName !== txt.name) log.debug('a peer name was cleaned before showing it', { instance });
    const id = lanPeerId(s);
    const known = store.get().fingerprints[id];
    // A robot's record carries every address it has (bonjour-service's `records()`), a container bridge's
    // or another network's among them, in its interfaces' order: the one on our link is the one
    // this cockpit's owner can reach.
    const ipv4 = s.addresses.find((a) => isIP(a) === 4 && onLink(a)) ?? s.addresses.find((a) => isIP(a) === 4);
    return {
      id,
      source: 'lan',
      service: s.service,
      name,
      kind: txt.kind,
      version: txt.version,
      host: ipv4 ?? s.addresses[0] ?? s.host ?? `${localHostLabel(instance) ?? 'unnamed'}.local`,
      port: s.port,
      httpsPort: txt.httpsPort,
      fingerprint: txt.fingerprint,
      fingerprintChange: known?.change ?? null,
      lastSeen: iso(s.seenAt),
    };
  };

  const manualPeer = (m: ManualPeer): FleetPeer => {
    const known = store.get().fingerprints[m.id];
    return {
      id: m.id,
      source: 'manual',
      service: 'cockpit',
      name: m.host,
      kind: null,
      version: null,
      host: m.host,
      port: m.port,
      httpsPort: m.httpsPort,
      fingerprint: known?.fingerprint ?? null,
      fingerprintChange: known?.change ?? null,
      lastSeen: null,
    };
  };

  const peers = (): FleetPeer[] => {
    const lan = options.sightings().map(lanPeer);
    const manual = store.get().manual.map(manualPeer);
    return [...lan, ...manual].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  };

  const find = (id: string) => {
    const peer = peers().find((p) => p.id === id);
    if (!peer) throw new AppError('NOT_FOUND', 'no such robot in the fleet');
    return peer;
  };

  const saving = async (fn: (cur: FleetRecord) => FleetRecord) => {
    try {
      await store.update(fn);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('STORAGE_FAILED', 'the fleet list could not be saved; nothing changed');
    }
  };

  return {
    peers,
    sighted(s) {
      if (s.service !== 'cockpit') return;
      const fp = readCockpitTxt(s.txt).fingerprint;
      if (!fp) return;
      const id = lanPeerId(s);
      const cur = store.get();
      const next = withSighting(cur, id, fp, iso(s.seenAt));
      if (next === cur) return;
      const change = next.fingerprints[id]?.change;
      // A pending change seen again (its day's sighting stored) is not news.
      if (change && change !== cur.fingerprints[id]?.change) log.warn('a robot on the LAN shows a new certificate fingerprint', { id });
      store.save(next).catch((err: unknown) => log.warn('fleet fingerprint not saved', { error: String(err) }));
    },
    async add(input) {
      const host = parsePeerHost(input.host);
      const port = parsePort(input.port, 'port', DEFAULT_PEER_PORT) as number;
      const httpsPort = parsePort(input.httpsPort, 'httpsPort', DEFAULT_PEER_HTTPS_PORT, true);
      const id = manualPeerId(host, port);
      await saving((cur) => {
        if (cur.manual.some((m) => m.id === id)) throw new AppError('CONFLICT', `${host}:${port} is already in the fleet`);
        if (cur.manual.length >= MAX_MANUAL_PEERS) throw new AppError('CONFLICT', `at most ${MAX_MANUAL_PEERS} robots can be added by address`);
        return { ...cur, manual: [...cur.manual, { id, host, port, httpsPort, addedAt: iso(options.now()) }] };
      });
      return find(id);
    },
    async remove(id) {
      if (!store.get().manual.some((m) => m.id === id)) throw new AppError('NOT_FOUND', 'no robot added by address has that id');
      await saving((cur) => {
        const { [id]: _dropped, ...fingerprints } = cur.fingerprints;
        return { manual: cur.manual.filter((m) => m.id !== id), fingerprints };
      });
    },
    async recordFingerprint(id, fingerprint) {
      find(id);
      await saving((cur) => withSighting(cur, id, fingerprint, iso(options.now())));
      return find(id);
    },
    async trust(id) {
      find(id);
      await saving((cur) => withTrusted(cur, id));
      return find(id);
    },
  };
}
