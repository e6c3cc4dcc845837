/**
 * The robot core of server A: ONE daemon client, ONE state feed and cache, the move library,
 * and the health picture built from them. Routes, the WebSocket hub and later features all read
 * from here, so there is one source of truth per fact.
 */
import type { CockpitIdentity } from '../contract/discovery.ts';
import type { CameraHealth, Health } from '../contract/health.ts';
import type { RobotState, ServiceState } from '../contract/state.ts';
import { HttpDaemonClient, type DaemonClient } from '../daemon/daemon-client.ts';
import { buildRobotState } from '../daemon/robot-state.ts';
import { StateFeed } from '../daemon/state-feed.ts';
import type { Log } from '../log.ts';
import { createMoveLibraryCache, type MoveLibraryCache } from '../motion/move-library.ts';
import { COCKPIT_VERSION } from '../version.ts';
import { readPressure } from './pressure.ts';
import { createSystemSampler } from './system-stats.ts';

/** Below a broadcast tick (15-50 Hz) and the daemon's own 50 Hz: invisible to readers. */
const STATE_JSON_TTL_MS = 10;

export interface RobotCoreOptions {
  daemonUrl: string;
  simulated: boolean;
  log: Log;
  /** Upstream state rate; the daemon caps it at 50. */
  upstreamHz?: number;
  /** Lets tests swap in a client; production always builds the HTTP one. */
  daemon?: DaemonClient;
}

export interface RobotCore {
  readonly daemon: DaemonClient;
  readonly feed: StateFeed;
  readonly simulated: boolean;
  readonly moves: MoveLibraryCache;
  /** Service states shown in the state object (thinker, tracking, reel...). */
  readonly services: Map<string, ServiceState>;
  state(): RobotState | undefined;
  /**
   * The state serialised, shared by every reader within a few milliseconds: /api/state and the
   * /ws broadcast then cost one build and one stringify per tick, not one per viewer.
   */
  stateJson(): string | undefined;
  health(): Health;
  /** Lets the tracking controller, built after the core, appear in the state object. */
  attachTracking(status: () => unknown): void;
  /** The camera's health, from the frame hub built after the core. */
  attachCamera(health: () => CameraHealth): void;
  /** The robot's public identity (name, kind, fingerprint), from the setup store built after the core. */
  attachIdentity(identity: () => CockpitIdentity): void;
  start(): void;
  stop(): Promise<void>;
}

export function createRobotCore(options: RobotCoreOptions): RobotCore {
  const daemon = options.daemon ?? new HttpDaemonClient({ baseUrl: options.daemonUrl });
  const feed = new StateFeed({ daemon, log: options.log.child('feed'), upstreamHz: options.upstreamHz ?? 30 });
  const system = createSystemSampler();
  const services = new Map<string, ServiceState>();
  const daemonPort = Number(new URL(options.daemonUrl).port || 80);
  let pressureCache = { at: 0, value: readPressure(daemonPort) };
  let trackingStatus: (() => unknown) | undefined;
  let cameraHealth: () => CameraHealth = () => ({ status: 'off', fps: 0 });
  let identity: () => CockpitIdentity = () => ({ name: 'Robot Cockpit', kind: 'desktop', https_port: null, fingerprint: null });

  const pressure = () => {
    // /proc walks cost a little; health may be polled often.
    if (Date.now() - pressureCache.at > 1000) pressureCache = { at: Date.now(), value: readPressure(daemonPort) };
    return pressureCache.value;
  };

  const state = () =>
    buildRobotState(
        feed.snapshot(),
        {
          simulated: options.simulated,
          system: system.get(),
          services: Object.fromEntries(services),
          ...(trackingStatus ? { tracking: trackingStatus() } : {}),
        },
        Date.now(),
      );
  let jsonCache: { at: number; json: string | undefined } = { at: 0, json: undefined };

  return {
    daemon,
    feed,
    simulated: options.simulated,
    moves: createMoveLibraryCache(daemon),
    services,
    state,
    stateJson() {
      const now = Date.now();
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
          state: snap.status?.state ?? null,
          version: snap.status?.version ?? null,
        },
        camera: cameraHealth(),
        last_error: snap.lastError,
        problems: snap.problems,
        pressure: pressure(),
        stream: { connected: snap.streamConnected, hz: snap.hz },
        version: COCKPIT_VERSION,
        identity: identity(),
      };
    },
    attachTracking(status) {
      trackingStatus = status;
    },
    attachCamera(health) {
      cameraHealth = health;
    },
    attachIdentity(read) {
      identity = read;
    },
    start() {
      feed.start();
    },
    async stop() {
      feed.stop();
      system.stop();
      await daemon.close();
    },
  };
}
