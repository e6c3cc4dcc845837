/**
 * The TXT record of `_robot-cockpit._tcp`, both ways. Written: name, robot kind, cockpit version,
 * HTTPS port and the CA certificate's fingerprint, nothing else (the record is readable by
 * anyone on the LAN: never a token). Read: the same keys from other cockpits, and the keys a
 * Reachy Mini daemon advertises on `_reachy-mini._tcp` (robot_name, version, model), each
 * value checked and cleaned, since any host on the LAN can send anything.
 */
import type { CockpitIdentity } from '../contract/discovery.ts';
import { cleanNetworkText, ROBOT_NAME_MAX } from './network-text.ts';

export const COCKPIT_SERVICE = 'robot-cockpit';
export const DAEMON_SERVICE = 'reachy-mini';

/** The keys this cockpit advertises; a test checks none of them can carry a secret. */
export const COCKPIT_TXT_KEYS = ['name', 'kind', 'version', 'https_port', 'fp'] as const;

export function cockpitTxt(identity: CockpitIdentity, version: string): Record<(typeof COCKPIT_TXT_KEYS)[number], string> {
  return {
    name: identity.name,
    kind: identity.kind,
    version,
    https_port: identity.https_port === null ? '' : String(identity.https_port),
    fp: identity.fingerprint ?? '',
  };
}

/** What a peer's TXT record says once cleaned; absent or unusable values are null. */
export interface PeerTxt {
  name: string | null;
  kind: string | null;
  version: string | null;
  httpsPort: number | null;
  fingerprint: string | null;
}

const FINGERPRINT = /^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/;

function port(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d{1,5}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= 65535 ? n : null;
}

function text(raw: string | undefined, max: number): string | null {
  if (raw === undefined) return null;
  const clean = cleanNetworkText(raw, max);
  return clean === '' ? null : clean;
}

export function readCockpitTxt(txt: Readonly<Record<string, string>>): PeerTxt {
  const fp = txt['fp']?.toUpperCase();
  return {
    name: text(txt['name'], ROBOT_NAME_MAX),
    kind: text(txt['kind'], 32),
    version: text(txt['version'], 40),
    httpsPort: port(txt['https_port']),
    fingerprint: fp !== undefined && FINGERPRINT.test(fp) ? fp : null,
  };
}

/** A daemon's record (docs/daemon.md, mDNS): robot_name, version, model; it has no HTTPS. */
export function readDaemonTxt(txt: Readonly<Record<string, string>>): PeerTxt {
  return {
    name: text(txt['robot_name'], ROBOT_NAME_MAX),
    kind: text(txt['model'], 40),
    version: text(txt['version'], 40),
    httpsPort: null,
    fingerprint: null,
  };
}
