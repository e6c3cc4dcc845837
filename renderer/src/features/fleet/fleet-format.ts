/**
 * Pure helpers of the fleet page: where to reach a robot from this page, what its health says,
 * and the order (robots that answer first). Everything about a peer came from the network: it is
 * checked here and shown as text only.
 */
import type { FleetPeer } from '../../lib/api/fleet-api.ts';

/** What a robot's /api/health told this browser, once checked. */
export interface PeerHealth {
  ok: boolean;
  name: string | null;
  kind: string | null;
  version: string | null;
  fingerprint: string | null;
  problems: number;
}

/**
 * checking: not read yet; answers: read now; silent: no answer in time (or not a cockpit);
 * daemon: a robot daemon's own advertisement, which has no public health for browsers (its
 * cockpit, when it has one, is listed on its own).
 */
export type PeerReach =
  | { state: 'checking' }
  | { state: 'answers'; health: PeerHealth }
  | { state: 'silent' }
  | { state: 'daemon' };

const FINGERPRINT = /^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/;

function text(u: unknown, max: number): string | null {
  if (typeof u !== 'string') return null;
  // eslint-disable-next-line no-control-regex -- control and bidi characters are what is removed
  const clean = u.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').trim();
  return clean === '' ? null : [...clean].slice(0, max).join('');
}

/** Reads a peer's health body; null when it is not one. A daemon's health has no identity. */
export function readPeerHealth(u: unknown): PeerHealth | null {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return null;
  const h = u as Record<string, unknown>;
  if (typeof h.ok !== 'boolean') return null;
  const identity = typeof h.identity === 'object' && h.identity !== null ? (h.identity as Record<string, unknown>) : {};
  const fingerprint = typeof identity.fingerprint === 'string' ? identity.fingerprint.toUpperCase() : '';
  const problems = typeof h.problems === 'object' && h.problems !== null ? Object.keys(h.problems).length : 0;
  return {
    ok: h.ok,
    name: text(identity.name, 63),
    kind: text(identity.kind, 32),
    version: text(h.version, 40),
    fingerprint: FINGERPRINT.test(fingerprint) ? fingerprint : null,
    problems,
  };
}

function origin(scheme: 'http' | 'https', host: string, port: number): string {
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The address to open: HTTPS when the page is HTTPS and the robot has it (no mixed content). */
export function peerOrigin(peer: Pick<FleetPeer, 'host' | 'port' | 'httpsPort'>, pageIsHttps: boolean): string {
  return pageIsHttps && peer.httpsPort !== null ? origin('https', peer.host, peer.httpsPort) : origin('http', peer.host, peer.port);
}

/** A cockpit's public health, the one path the page's policy lets it read off its origin. */
export function healthUrl(peer: FleetPeer, pageIsHttps: boolean): string {
  return `${peerOrigin(peer, pageIsHttps)}/api/health`;
}

/** Robots that answer first, then by name. */
export function sortPeers<T extends { peer: FleetPeer; reach: PeerReach }>(rows: readonly T[]): T[] {
  const order: Record<PeerReach['state'], number> = { answers: 0, daemon: 1, checking: 2, silent: 3 };
  const rank = (r: PeerReach) => order[r.state];
  return [...rows].sort((a, b) => rank(a.reach) - rank(b.reach) || a.peer.name.localeCompare(b.peer.name));
}

export function reachText(reach: PeerReach): string {
  if (reach.state === 'checking') return 'Checking…';
  if (reach.state === 'silent') return 'Does not answer';
  if (reach.state === 'daemon') return 'Robot daemon seen on the LAN';
  if (reach.health.ok) return 'Answers · healthy';
  const n = reach.health.problems;
  return `Answers · ${n === 0 ? 'not ready' : `${n} problem${n === 1 ? '' : 's'}`}`;
}
