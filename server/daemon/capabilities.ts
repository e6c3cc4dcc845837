/**
 * Version awareness: what the connected daemon can do, read from its own OpenAPI document
 * (`GET /openapi.json`, FastAPI's route list) and its reported version. The cockpit asks the
 * map rather than assuming a version, e.g. `has('POST', '/api/apps/start-app/{app_name}/no-evict')`
 * to choose between starting an app without evicting a remote session and the plain start.
 * Paths are written as the daemon's OpenAPI writes them: `{name}` placeholders, no converters.
 */
import { TESTED_RANGE } from '../real-daemon/pin.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface Capabilities {
  /** The daemon's version as its status reports it; null until known. */
  readonly version: string | null;
  /** True once a route list was read; false when the daemon gave none (every `has` is false). */
  readonly known: boolean;
  has(method: Method, path: string): boolean;
  /** `METHOD path` of every route the daemon lists, sorted. */
  routes(): string[];
}

/**
 * The daemon routes the cockpit relies on or chooses between, each with why. Health lists the
 * ones the connected daemon lacks.
 */
export const WANTED_ROUTES: readonly { method: Method; path: string; why: string }[] = [
  { method: 'GET', path: '/api/state/full', why: 'robot state' },
  { method: 'POST', path: '/api/move/goto', why: 'look, antennas, body yaw, home' },
  { method: 'POST', path: '/api/move/set_target', why: 'joystick' },
  { method: 'POST', path: '/api/move/stop', why: 'stopping moves' },
  { method: 'POST', path: '/api/move/play/wake_up', why: 'wake' },
  { method: 'POST', path: '/api/move/play/goto_sleep', why: 'sleep' },
  { method: 'POST', path: '/api/motors/set_mode/{mode}', why: 'motor modes' },
  { method: 'POST', path: '/api/volume/set', why: 'volume' },
  { method: 'POST', path: '/api/media/tracking/enable', why: 'face tracking' },
  { method: 'GET', path: '/api/state/doa', why: 'turn toward the speaker' },
  { method: 'GET', path: '/api/daemon/robot-app-lock-status', why: 'the robot app lock' },
  { method: 'POST', path: '/api/apps/start-app/{app_name}/no-evict', why: 'starting an app without evicting a remote session' },
];

export const UNKNOWN_CAPABILITIES: Capabilities = Object.freeze({
  version: null,
  known: false,
  has: () => false,
  routes: () => [],
});

/** Builds the map from an OpenAPI document; anything without a `paths` object gives an unknown map. */
export function capabilitiesFrom(version: string | null, openapi: unknown): Capabilities {
  const paths = (openapi as { paths?: unknown } | null)?.paths;
  if (typeof paths !== 'object' || paths === null) return { ...UNKNOWN_CAPABILITIES, version };
  const set = new Set<string>();
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const method of Object.keys(item)) set.add(`${method.toUpperCase()} ${path}`);
  }
  return {
    version,
    known: true,
    has: (method, path) => set.has(`${method} ${path}`),
    routes: () => [...set].sort(),
  };
}

/** Release numbers only: `1.10.0.dev0` and `1.13.0rc1` count as 1.10.0 and 1.13.0. */
export function releaseOf(version: string): [number, number, number] | null {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

export function compareReleases(a: [number, number, number], b: [number, number, number]): number {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

export interface VersionReport {
  version: string | null;
  tested: { min: string; max: string };
  /** null while the version is unknown. */
  inRange: boolean | null;
  warning: string | null;
  /** `METHOD path (why)` for every wanted route the daemon does not list; empty when unknown. */
  missing: string[];
}

/** What health and the dashboard show about version skew: a warning, never a failure. */
export function versionReport(caps: Capabilities, range: { min: string; max: string } = TESTED_RANGE): VersionReport {
  const tested = { min: range.min, max: range.max };
  const missing = caps.known
    ? WANTED_ROUTES.filter((r) => !caps.has(r.method, r.path)).map((r) => `${r.method} ${r.path} (${r.why})`)
    : [];
  if (caps.version === null) return { version: null, tested, inRange: null, warning: null, missing };
  const release = releaseOf(caps.version);
  const min = releaseOf(range.min) as [number, number, number];
  const max = releaseOf(range.max) as [number, number, number];
  const inRange = release !== null && compareReleases(release, min) >= 0 && compareReleases(release, max) <= 0;
  const warning = inRange
    ? null
    : `daemon version ${caps.version} is outside the tested range ${range.min} to ${range.max}; the cockpit keeps working but has not been proved against it`;
  return { version: caps.version, tested, inRange, warning, missing };
}
