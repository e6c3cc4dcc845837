/** The public health object of GET /api/health. */
import type { CockpitIdentity } from './discovery.ts';
import type { Presence } from './state.ts';

export interface CameraHealth {
  status: 'live' | 'starting' | 'lost' | 'off';
  fps: number;
  /** Present when the daemon has no camera at all (it runs with `no_media`): says so. */
  absent?: string;
}

export interface Pressure {
  /**
   * Whose figures these are: the daemon process when it runs on this host (found from the owner
   * of its listening socket), else the cockpit's own.
   */
  source: 'daemon' | 'cockpit';
  pid: number | null;
  /** Open file descriptors of that process. */
  fds: number;
  fd_limit: number;
  /**
   * Sockets in CLOSE-WAIT: the daemon's own on its port (source daemon), or the cockpit's towards
   * the daemon port (source cockpit). The leak the daemon notes warn about.
   */
  close_wait: number;
  /** The cockpit's own sockets in CLOSE-WAIT towards the daemon port, whatever the source. */
  cockpit_close_wait: number;
  /** Over 60 % of the descriptor limit, or 50 CLOSE-WAIT sockets. */
  warning: boolean;
}

/** Version awareness: the daemon's version against the range the cockpit was proved with. */
export interface DaemonVersionCheck {
  tested: { min: string; max: string };
  /** null while the version is unknown. */
  in_range: boolean | null;
  /** A clear warning when outside the tested range; never a failure. */
  warning: string | null;
  /** False when the daemon gave no route list (`/openapi.json`). */
  capabilities_known: boolean;
  /** Daemon routes the cockpit wants that this daemon lacks: `METHOD path (what for)`. */
  missing: readonly string[];
}

export interface Health {
  ok: boolean;
  daemon: {
    reachable: boolean;
    presence: Presence;
    url: string;
    simulated: boolean;
    state: string | null;
    version: string | null;
    version_check: DaemonVersionCheck;
    /** The daemon's own control-loop frequency as it reports it; null when it reports none. */
    loop_hz: number | null;
  };
  camera: CameraHealth;
  last_error: string | null;
  /** Keyed problems, e.g. `daemon:unreachable`, each with a human message. */
  problems: Record<string, string>;
  pressure: Pressure;
  stream: { connected: boolean; hz: number };
  version: string;
  /** The robot's name, kind, HTTPS port and CA fingerprint: what the fleet view of another cockpit shows. */
  identity: CockpitIdentity;
}
