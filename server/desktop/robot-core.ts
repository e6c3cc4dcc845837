/**
 * The robot core of the desktop server: ONE daemon client, ONE state feed and cache, the move library,
 * and the health picture built from them and from the camera and identity handed in. Routes, the
 * WebSocket hub and later features all read from here, so there is one source of truth per fact.
 */
import { networkInterfaces } from 'node:os';
import type { CockpitIdentity } from '../contract/discovery.ts';
import type { CameraHealth, Health } from '../contract/health.ts';
import type { RobotState, ServiceState } from '../contract/state.ts';
import { versionReport, type Capabilities } from '../daemon/capabilities.ts';
import { watchCapabilities, type CapabilityWatch } from '../daemon/capability-watch.ts';
import { HttpDaemonClient, type DaemonClient } from '../daemon/daemon-client.ts';
import { buildRobotState, daemonLoopHz, daemonPhysics, daemonStateOf } from '../daemon/robot-state.ts';
import { StateFeed } from '../daemon/state-feed.ts';
import { systemClock, type TimerClock } from '../clock.ts';
import type { Log } from '../log.ts';
import type { TrackingController } from '../perception/tracking.ts';
import { hubCacheDir } from '../motion/hub-move-files.ts';
import { createMoveDurations } from '../motion/move-durations.ts';
import { createMoveLibraryCache, MOVE_DATASETS, type MoveLibraryCache } from '../motion/move-library.ts';
import { COCKPIT_VERSION } from '../version.ts';
import { createPressureReader, findListenerPid } from './pressure.ts';
import { createSystemSampler } from './system-stats.ts';

/** What health says when the daemon reports `no_media` (e.g. the real daemon with --no-media). */
const NO_CAMERA = 'the robot daemon runs without media (no_media): it has no camera';

/** The identity of a core built without a setup store (tests). */
const DEFAULT_IDENTITY: CockpitIdentity = {
  name: 'Robot Cockpit',
  kind: 'desktop',
  https_port: null,
  fingerprint: null,
};

/** How often to look again for a local daemon process that was not found. */
const PID_RETRY_MS = 5000;
/**
 * The state stream's rate while no dashboard is open and no voice is heard: enough for the black
 * box and REST reads on a robot at rest (docs/daemon.md, "State stream rate"; bench/RESULTS.md,
 * "Idle"). Speech asks for the daemon's 10 Hz DoA rate (server/perception/doa-turner.ts).
 */
const REST_HZ = 5;

/** Below a broadcast tick (15-50 Hz) and the daemon's own 50 Hz: invisible to readers. */
const STATE_JSON_TTL_MS = 10;

export interface RobotCoreOptions {
  daemonUrl: string;
  simulated: boolean;
  log: Log;
  /** Upstream state rate; the daemon caps it at 50. */
  upstreamHz?: number;
  /** The state stream's rate while no dashboard watches (state-feed.ts, setWatched). */
  restHz?: number;
  /** Lets tests swap in a client; production always builds the HTTP one. */
  daemon?: DaemonClient;
  /** The state feed's timers and sample times and the pressure cache's age; the real clock by default. */
  clock?: TimerClock;
  /** Where learned move lengths are kept (move-durations.ts); in memory only when omitted. */
  dataDir?: string;
  /** Where the daemon's hub cache is, when it runs on this computer; hubCacheDir() by default. */
  hubCache?: string;
  /** The camera's health, from the frame hub built before the core; `off` without one (tests). */
  camera?: () => CameraHealth;
  /** The robot's public identity (name, kind, fingerprint), from the setup store built before the core. */
  identity?: () => CockpitIdentity;
  /**
   * Builds the face tracker on the core's own daemon client, feed and services, as the core is
   * built, so the state object carries its status from the first read. None in tests that need
   * no tracker: their state has no `tracking`.
   */
  tracking?: (link: CoreLink) => TrackingController;
}

/** What the core hands the parts built with it. */
export interface CoreLink {
  daemon: DaemonClient;
  feed: StateFeed;
  services: Map<string, ServiceState>;
  simulated: boolean;
}

export interface RobotCore {
  readonly daemon: DaemonClient;
  readonly feed: StateFeed;
  readonly simulated: boolean;
  readonly moves: MoveLibraryCache;
  /**
   * What the connected daemon offers, from its route list and version (server/daemon/capabilities.ts):
   * e.g. `capabilities().has('POST', '/api/apps/start-app/{app_name}/no-evict')`.
   */
  capabilities(): Capabilities;
  readonly capabilityWatch: CapabilityWatch;
  /** Service states shown in the state object (thinker, tracking, reel...). */
  readonly services: Map<string, ServiceState>;
  state(): RobotState | undefined;
  /**
   * The state serialised, shared by every reader within a few milliseconds: /api/state and the
   * /ws broadcast then cost one build and one stringify per tick, not one per viewer.
   */
  stateJson(): string | undefined;
  health(): Health;
  /** The face tracker built with the core (RobotCoreOptions.tracking). */
  readonly tracking: TrackingController | undefined;
  start(): void;
  stop(): Promise<void>;
}

/** A core built with its face tracker: what the desktop features need. */
export type TrackedRobotCore = RobotCore & { readonly tracking: TrackingController };

export function createRobotCore(
  options: RobotCoreOptions & Required<Pick<RobotCoreOptions, 'tracking'>>,
): TrackedRobotCore;
export function createRobotCore(options: RobotCoreOptions): RobotCore;
export function createRobotCore(options: RobotCoreOptions): RobotCore {
  const daemon = options.daemon ?? new HttpDaemonClient({ baseUrl: options.daemonUrl });
  const clock = options.clock ?? systemClock;
  const feed = new StateFeed({
    daemon,
    log: options.log.child('feed'),
    upstreamHz: options.upstreamHz ?? 30,
    restHz: options.restHz ?? REST_HZ,
    clock,
  });
  const system = createSystemSampler();
  const services = new Map<string, ServiceState>();
  const capabilityWatch = watchCapabilities({ daemon, feed, log: options.log.child('capabilities') });
  const daemonAddress = new URL(options.daemonUrl);
  const daemonPort = Number(daemonAddress.port || 80);
  // The in-process simulator is this process: its figures are the cockpit's own.
  const daemonIsLocal = !options.simulated && isLocalHost(daemonAddress.hostname);
  // The daemon's process, when it runs here. Finding it walks every process's descriptors, so a
  // found one is kept while it lives, and a miss is retried only every PID_RETRY_MS.
  let daemonPid: number | null = null;
  let missedAt = -Infinity;
  const daemonPidNow = (): number | undefined => {
    if (!daemonIsLocal) return undefined;
    if (daemonPid !== null && processAlive(daemonPid)) return daemonPid;
    daemonPid = null;
    if (clock.now() - missedAt < PID_RETRY_MS) return undefined;
    daemonPid = findListenerPid(daemonPort);
    if (daemonPid === null) missedAt = clock.now();
    return daemonPid ?? undefined;
  };
  const readPressure = createPressureReader(daemonPort);
  let pressureCache = { at: 0, value: readPressure(daemonPidNow()) };
  const tracking = options.tracking?.({ daemon, feed, services, simulated: options.simulated });
  // Tracking is in the state object only while the daemon's tracker is available.
  const trackingStatus = tracking
    ? () => (tracking.available() === false ? undefined : tracking.status())
    : () => undefined;
  const cameraHealth = options.camera ?? ((): CameraHealth => ({ status: 'off', fps: 0 }));
  const identity = options.identity ?? ((): CockpitIdentity => DEFAULT_IDENTITY);

  const pressure = () => {
    // /proc walks cost a little; health may be polled often.
    if (clock.now() - pressureCache.at > 1000) {
      pressureCache = { at: clock.now(), value: readPressure(daemonPidNow()) };
    }
    return pressureCache.value;
  };

  const state = () =>
    buildRobotState(
      feed.snapshot(),
      {
        simulated: options.simulated,
        system: system.get(),
        services: Object.fromEntries(services),
        tracking: trackingStatus(),
      },
      clock.now(),
    );
  let jsonCache: { at: number; json: string | undefined } = { at: 0, json: undefined };

  return {
    daemon,
    feed,
    simulated: options.simulated,
    moves: createMoveLibraryCache(
      daemon,
      createMoveDurations({
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        // The daemon's move files are only ours to read when it runs here.
        hubCache: daemonIsLocal ? (options.hubCache ?? hubCacheDir()) : null,
        datasets: MOVE_DATASETS,
        log: options.log.child('moves'),
      }),
    ),
    capabilities: () => capabilityWatch.current(),
    capabilityWatch,
    services,
    tracking,
    state,
    stateJson() {
      const now = clock.now();
      if (now - jsonCache.at >= STATE_JSON_TTL_MS) {
        const current = state();
        jsonCache = { at: now, json: current ? JSON.stringify(current) : undefined };
      }
      return jsonCache.json;
    },
    health() {
      const snap = feed.snapshot();
      const reachable = !('daemon:unreachable' in snap.problems) && snap.status !== undefined;
      return {
        ok: snap.presence === 'connected' && Object.keys(snap.problems).length === 0,
        daemon: {
          reachable,
          presence: snap.presence,
          url: options.simulated ? 'simulator' : daemon.baseUrl,
          simulated: options.simulated,
          physics: daemonPhysics(snap.status),
          state: daemonStateOf(snap),
          version: snap.status?.version ?? null,
          version_check: versionCheck(capabilityWatch.current()),
          loop_hz: daemonLoopHz(snap),
        },
        camera: snap.status?.no_media === true ? { status: 'off', fps: 0, absent: NO_CAMERA } : cameraHealth(),
        last_error: snap.lastError,
        last_error_at: snap.lastErrorAt === null ? null : new Date(snap.lastErrorAt).toISOString(),
        problems: snap.problems,
        pressure: pressure(),
        stream: { connected: snap.streamConnected, hz: snap.hz },
        version: COCKPIT_VERSION,
        identity: identity(),
      };
    },
    start() {
      feed.start();
    },
    async stop() {
      capabilityWatch.stop();
      feed.stop();
      system.stop();
      await daemon.close();
    },
  };
}

function versionCheck(caps: Capabilities): Health['daemon']['version_check'] {
  const report = versionReport(caps);
  return {
    tested: report.tested,
    in_range: report.inRange,
    warning: report.warning,
    capabilities_known: caps.known,
    missing: report.missing,
  };
}

/** Loopback, or an address of one of this host's interfaces: the daemon process is then visible in /proc. */
function isLocalHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1' || /^127\./.test(bare)) return true;
  return Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === bare));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
