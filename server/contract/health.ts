/** The public health object of GET /api/health. */
import type { CockpitIdentity } from './discovery.ts';
import type { Presence } from './state.ts';

export interface CameraHealth {
  status: 'live' | 'starting' | 'lost' | 'off';
  fps: number;
}

export interface Pressure {
  /** Open file descriptors of the cockpit process. */
  fds: number;
  fd_limit: number;
  /** Sockets in CLOSE-WAIT towards the daemon port: the leak the daemon notes warn about. */
  close_wait: number;
  warning: boolean;
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
