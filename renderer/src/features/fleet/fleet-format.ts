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

/**
 * Characters that show nothing, and where one draws something and is kept: the server's rule for
 * names from the LAN (server/discovery/network-text.ts), which the renderer may not import; a test
 * there keeps this copy the same (network-text-copy.test.ts). A
 * robot's health names it as it likes, and "Kit\u200bchen" must not read as "Kitchen".
 */
// eslint-disable-next-line no-misleading-character-class -- the marks are matched alone, which is the point
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;
const DRAWS =
  /(?<=[\p{Extended_Pictographic}\u{1f3fb}-\u{1f3ff}]\ufe0f?)\u200d(?=\p{Extended_Pictographic})|(?<=[\p{Emoji}])\ufe0f|(?<=\u{1f3f4}[\u{e0020}-\u{e007e}]{0,31})[\u{e0020}-\u{e007f}]|(?<=[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}]\p{M}{0,3})[\u200c\u200d]/uy;

function draws(text: string, at: number): boolean {
  DRAWS.lastIndex = at;
  return DRAWS.test(text);
}

function text(u: unknown, max: number): string | null {
  if (typeof u !== 'string') return null;
  const visible = u.replace(INVISIBLE, (ch: string, at: number, whole: string) => (draws(whole, at) ? ch : ' '));
  // eslint-disable-next-line no-control-regex -- control and bidi characters are what is removed
  const clean = visible.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
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
