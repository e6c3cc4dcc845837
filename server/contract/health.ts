/** The public health object of GET /api/health. */
import type { CockpitIdentity } from './discovery.ts';
import type { DaemonPhysics, Presence } from './state.ts';

export interface CameraHealth {
  status: 'live' | 'starting' | 'lost' | 'off';
  fps: number;
  /** Present when the daemon has no camera at all (it runs with `no_media`): says so. */
  absent?: string;
  /**
   * While `starting` or `lost`: why the last attempt to get pictures failed (the camera did not
   * start, failed, or sent nothing in time), said until a picture comes. Absent before any failure.
   */
  trouble?: string;
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
    /** What a daemon with no robot runs instead (`mujoco`, `mockup`); null for a robot. */
    physics: DaemonPhysics;
    state: string | null;
    version: string | null;
    version_check: DaemonVersionCheck;
    /** The daemon's own control-loop frequency as it reports it; null when it reports none. */
    loop_hz: number | null;
  };
  camera: CameraHealth;
  /** The daemon link's last error (the state stream, its REST fallback, the status poll); kept after it recovers. */
  last_error: string | null;
  /** When last_error happened (ISO 8601), so an old error is not taken for a present one; null with it. */
  last_error_at: string | null;
  /** Keyed problems, e.g. `daemon:unreachable`, each with a human message. */
  problems: Record<string, string>;
  pressure: Pressure;
  stream: { connected: boolean; hz: number };
  version: string;
  /** The robot's name, kind, HTTPS port and CA fingerprint: what the fleet view of another cockpit shows. */
  identity: CockpitIdentity;
}

/**
 * Control requests that reached the daemon during one sample's interval: the time from the
 * cockpit receiving each request to the daemon's first answer, in milliseconds.
 */
export interface ControlLatencySample {
  count: number;
  /** Median; null when no control request reached the daemon in the interval. */
  p50Ms: number | null;
  maxMs: number | null;
}

/**
 * One point of the health history the cockpit keeps (server/diagnostics/health-history.ts):
 * GET /api/console/health/history, `health_sample` frames on /ws, the diagnostics bundle.
 */
export interface HealthSample {
  /** Epoch milliseconds on the cockpit's clock. */
  t: number;
  /** The same instant, ISO. */
  at: string;
  ok: boolean;
  presence: Presence;
  camera: CameraHealth['status'];
  fds: number;
  closeWait: number;
  /** The cockpit's measured rate of the daemon's state stream, frames per second. */
  streamHz: number;
  /** The daemon's own control-loop frequency when it reports one (real motors), else null. */
  loopHz: number | null;
  /** Camera frames per second reaching the frame hub. */
  cameraFps: number;
  control: ControlLatencySample;
  /** The cockpit process's CPU time over the interval, percent of one core. */
  cpuPercent: number;
  /** Keys of the health problems at that instant. */
  problems: string[];
}

/** GET /api/console/health/history: the last `windowMs` of samples, oldest first. */
export interface HealthHistoryView {
  everyMs: number;
  windowMs: number;
  samples: HealthSample[];
}

/** Sent on /ws to every dashboard each time a sample is taken. */
export interface HealthSampleFrame {
  type: 'health_sample';
  sample: HealthSample;
}
