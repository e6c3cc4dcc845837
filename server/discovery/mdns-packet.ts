/**
 * Reads service sightings out of a decoded mDNS response: PTR to an instance of one of the two
 * service types we browse, its SRV (host, port), TXT, and the host's A/AAAA records. Every field
 * is checked before use, because anything on the LAN may send any packet; a record of the wrong
 * shape is skipped, never trusted, and this function never throws.
 */
import { isIP } from 'node:net';
import type { PeerService } from '../contract/discovery.ts';
import { isDnsName } from '../http/host-identity.ts';
import { COCKPIT_SERVICE, DAEMON_SERVICE } from './txt-record.ts';

export interface Sighting {
  service: PeerService;
  /** The instance label (the part before `._robot-cockpit._tcp.local`), as sent. */
  instance: string;
  /** The SRV target, lower case, when it is a usable host name. */
  host: string | null;
  port: number;
  addresses: string[];
  txt: Record<string, string>;
  /** Seconds the record may be kept; 0 is a goodbye. */
  ttl: number;
}

const SERVICE_TYPES: Readonly<Record<string, PeerService>> = {
  [`_${COCKPIT_SERVICE}._tcp.local`]: 'cockpit',
  [`_${DAEMON_SERVICE}._tcp.local`]: 'reachy-mini',
};

/** More than any honest responder sends; the rest of a flood is ignored. */
const MAX_RECORDS = 64;
const MAX_TXT_ENTRIES = 32;
const MAX_TXT_BYTES = 1300;
const MAX_ADDRESSES = 8;

interface Rr {
  name: string;
  type: string;
  ttl: number;
  data: unknown;
}

function records(packet: unknown): Rr[] {
  if (typeof packet !== 'object' || packet === null) return [];
  const p = packet as { answers?: unknown; additionals?: unknown };
  const all = [...(Array.isArray(p.answers) ? p.answers : []), ...(Array.isArray(p.additionals) ? p.additionals : [])];
  return all.slice(0, MAX_RECORDS).filter((r): r is Rr => {
    if (typeof r !== 'object' || r === null) return false;
    const rr = r as Record<string, unknown>;
    return typeof rr.name === 'string' && typeof rr.type === 'string' && typeof rr.ttl === 'number';
  });
}

const lower = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** `key=value` entries; a key without `=` is a boolean flag (RFC 6763 §6.4), kept as "". */
export function readTxtEntries(data: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  const entries = Array.isArray(data) ? data : Buffer.isBuffer(data) ? [data] : [];
  let bytes = 0;
  for (const entry of entries.slice(0, MAX_TXT_ENTRIES)) {
    const raw = Buffer.isBuffer(entry) ? entry : typeof entry === 'string' ? Buffer.from(entry) : undefined;
    if (!raw) continue;
    bytes += raw.length;
    if (bytes > MAX_TXT_BYTES) break;
    const textValue = raw.toString('utf8');
    const eq = textValue.indexOf('=');
    const key = (eq === -1 ? textValue : textValue.slice(0, eq)).toLowerCase();
    // Keys are printable ASCII without '=' (RFC 6763 §6.4); the first occurrence wins.
    if (!/^[\x20-\x3c\x3e-\x7e]{1,32}$/.test(key) || key in out) continue;
    out[key] = eq === -1 ? '' : textValue.slice(eq + 1);
  }
  return out;
}

function srvOf(data: unknown): { port: number; target: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Record<string, unknown>;
  if (typeof d.port !== 'number' || !Number.isInteger(d.port) || d.port < 1 || d.port > 65535) return undefined;
  if (typeof d.target !== 'string') return undefined;
  return { port: d.port, target: lower(d.target) };
}

export function sightingsInPacket(packet: unknown): Sighting[] {
  try {
    const rrs = records(packet);
    const out: Sighting[] = [];
    for (const ptr of rrs) {
      if (ptr.type !== 'PTR' || typeof ptr.data !== 'string') continue;
      const service = SERVICE_TYPES[lower(ptr.name)];
      const fqdn = lower(ptr.data);
      const suffix = `.${lower(ptr.name)}`;
      if (!service || !fqdn.endsWith(suffix)) continue;
      const instance = ptr.data.slice(0, ptr.data.length - suffix.length - (ptr.data.endsWith('.') ? 1 : 0));
      if (instance.length === 0 || instance.length > 255) continue;
      const srv = rrs.find((r) => r.type === 'SRV' && lower(r.name) === fqdn);
      const where = srv ? srvOf(srv.data) : undefined;
      if (!where) continue;
      const txt = rrs.find((r) => r.type === 'TXT' && lower(r.name) === fqdn);
      const addresses = rrs
        .filter((r) => (r.type === 'A' || r.type === 'AAAA') && lower(r.name) === where.target && typeof r.data === 'string')
        .map((r) => (r.data as string).toLowerCase())
        .filter((a) => isIP(a) !== 0 && !a.includes('%'))
        .slice(0, MAX_ADDRESSES);
      out.push({
        service,
        instance,
        host: isDnsName(where.target) ? where.target : null,
        port: where.port,
        addresses: [...new Set(addresses)],
        txt: txt ? readTxtEntries(txt.data) : {},
        ttl: Math.max(0, Math.min(ptr.ttl, 86_400)),
      });
    }
    return out;
  } catch {
    // A shape no check above foresaw: the packet is dropped like any other bad one.
    return [];
  }
}
