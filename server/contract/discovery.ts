/**
 * First-run setup and LAN discovery (server/discovery/README-discovery.md): the robot's stored
 * name, the guide's state, this cockpit's public identity in /api/health, and the fleet view.
 */

/** Who this cockpit is, as anyone on the LAN may read it (the mDNS TXT record carries the same). */
export interface CockpitIdentity {
  /** The robot's name as its owner set it (or the host's name until then). */
  name: string;
  /** Which robot this cockpit drives: `desktop` (Reachy Mini class) or `wheeled`. */
  kind: 'desktop' | 'wheeled';
  /** The desktop server's HTTPS port for LAN browsers; null when HTTPS is off. */
  https_port: number | null;
  /** SHA-256 of the local certificate authority ("AB:CD:..."); null when HTTPS is off. */
  fingerprint: string | null;
}

/** open: shown on the dashboard; finished: every step done or skipped; dismissed: closed early. */
export type GuideState = 'open' | 'finished' | 'dismissed';

/** Whether this cockpit is on the LAN's mDNS, and why not when it is not. */
export interface AdvertisingStatus {
  on: boolean;
  /** The instance name and `<name>.local` host while on; why it is off otherwise. */
  detail: string;
  /** The `.local` name this cockpit answers to while advertising; null otherwise. */
  localName: string | null;
}

/** GET /api/console/setup. */
export interface SetupView {
  name: string;
  /** False until the owner has named the robot (the name is the host's until then). */
  named: boolean;
  guide: GuideState;
  advertising: AdvertisingStatus;
  /** The HTTPS address a phone on the LAN opens (`https://<host>.local:<port>`); null without one. */
  httpsUrl: string | null;
}

/** cockpit: `_robot-cockpit._tcp`; reachy-mini: a robot daemon's own `_reachy-mini._tcp`. */
export type PeerService = 'cockpit' | 'reachy-mini';

export interface FingerprintChange {
  previous: string;
  current: string;
  /** ISO time of the sighting that showed the new fingerprint. */
  at: string;
}

/** One robot of the fleet view. Every text came from the network: render it as text only. */
export interface FleetPeer {
  id: string;
  /** lan: seen over mDNS; manual: added by address (kept across restarts). */
  source: 'lan' | 'manual';
  service: PeerService;
  name: string;
  kind: string | null;
  version: string | null;
  /** The host to open and read health from: an address or a `.local` name. */
  host: string;
  /** Plain HTTP port (the desktop server's, or the daemon's). */
  port: number;
  httpsPort: number | null;
  fingerprint: string | null;
  /** Set when the fingerprint differs from the one first seen, until the owner trusts the new one. */
  fingerprintChange: FingerprintChange | null;
  /** ISO time of the last mDNS sighting; null for a manual peer not seen on the LAN. */
  lastSeen: string | null;
}

/** GET /api/console/fleet. */
export interface FleetView {
  advertising: AdvertisingStatus;
  /** True while the cockpit listens for other robots on the LAN. */
  browsing: boolean;
  peers: FleetPeer[];
}
