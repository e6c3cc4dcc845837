/**
 * The handle startCockpit (server/index.ts) returns: what the entries (main/) call on a running
 * desktop server, and the teardown that stops it in reverse order of its build
 * (server/http/lifecycle.ts).
 */
import type { Access } from '../auth/access.ts';
import type { FleetTurnAnswer, FleetTurnInput } from '../agent/fleet-chat.ts';
import type { HttpsService } from '../auth/https-service.ts';
import type { Discovery } from '../discovery/index.ts';
import { LOCAL_WINDOW_CREDENTIAL } from '../http/caller.ts';
import type { Teardown } from '../http/lifecycle.ts';
import type { Recorder } from '../recorder/index.ts';
import type { SimDaemon } from '../sim/index.ts';
import type { Server } from 'node:http';
import type { DesktopApp } from './app.ts';
import type { DesktopFeatures } from './features.ts';
import type { PlatformNotice } from '../contract/platform-enrol.ts';
import { busyReason } from './robot-busy.ts';
import type { RobotCore } from './robot-core.ts';

export interface Cockpit {
  /** The desktop server's base URL as reachable on this host (loopback form). */
  readonly url: string;
  readonly port: number;
  /** The desktop server over HTTPS, when ROBOT_HTTPS_PORT is not 0. */
  readonly httpsUrl: string | undefined;
  readonly daemonUrl: string;
  readonly simulated: boolean;
  readonly sim: SimDaemon | undefined;
  readonly robot: RobotCore;
  readonly app: DesktopApp;
  readonly access: Access;
  /** The desktop server's features: the desktop tray calls the same control functions as the routes. */
  readonly features: DesktopFeatures;
  /** The black box recorder (server/recorder): the tray saves the last minutes through it. */
  readonly recorder: Recorder;
  /** The robot's name, the first-run guide's state, the mDNS advertisement and the fleet. */
  readonly discovery: Discovery;
  /** The HTTPS address phones on the LAN open (pairing links use it); undefined without one. */
  remoteUrl(): string | undefined;
  /**
   * An owner session for the desktop app's own window, resolved as credential 'local-window'.
   * Its id is the `cockpit_session` cookie value: the window gets a cookie, never a token in
   * its address. End it with `access.sessions.destroy(id)`.
   */
  createLocalWindowSession(ttlSeconds: number): Promise<{ id: string; key: string; expiresAt: number }>;
  /** The local certificate authority's certificate (PEM), for clients that must trust it. */
  readonly caCertPem: string | undefined;
  /** One fleet turn on the agent, without fleet tools: what a relayed `invoke` runs (text and pictures). */
  runFleetTurn(turn: FleetTurnInput): Promise<FleetTurnAnswer>;
  /** The tools a fleet turn may use: the verbs this robot offers other devices. */
  fleetToolNames(): string[];
  /** A platform notify envelope: an event receipt and a `notify` frame on /ws. */
  notify(notice: PlatformNotice): void;
  /** Why the robot is in use (a move, a turn, speech, a person in the last minute), or null when idle. */
  busyReason(): string | null;
  stop(): Promise<void>;
}

export interface Listeners {
  port: number;
  httpsPort: number | undefined;
  all: Server[];
}

export function cockpitHandle(parts: {
  app: DesktopApp;
  robot: RobotCore;
  access: Access;
  features: DesktopFeatures;
  recorder: Recorder;
  discovery: Discovery;
  sim: SimDaemon | undefined;
  daemonUrl: string;
  https: HttpsService | undefined;
  servers: Listeners;
  teardown: Teardown;
  remoteUrl: () => string | undefined;
}): Cockpit {
  const { servers } = parts;
  return {
    url: `http://127.0.0.1:${servers.port}`,
    port: servers.port,
    httpsUrl: servers.httpsPort ? `https://localhost:${servers.httpsPort}` : undefined,
    daemonUrl: parts.daemonUrl,
    simulated: parts.sim !== undefined,
    sim: parts.sim,
    robot: parts.robot,
    app: parts.app,
    access: parts.access,
    features: parts.features,
    recorder: parts.recorder,
    discovery: parts.discovery,
    remoteUrl: parts.remoteUrl,
    createLocalWindowSession: (ttlSeconds) =>
      parts.access.sessions.create({ credentialId: LOCAL_WINDOW_CREDENTIAL, ttlSeconds }),
    caCertPem: parts.https?.tls.caCertPem,
    runFleetTurn: (turn) => parts.features.agent.runFleetTurn(turn),
    fleetToolNames: () => parts.features.agent.runtime.toolsFor(true).map((tool) => tool.name),
    notify: (notice) => parts.features.notify(notice),
    busyReason: () =>
      busyReason({
        moveRunning: parts.features.control.arbiter.current() !== undefined,
        runningTurns: parts.features.agent.runtime.runningTurns(),
        speaking: parts.features.control.speaking(),
        events: parts.features.events.recent(),
        now: Date.now(),
      }),
    // Daemon media is never released on the way down: other apps on the robot still use it.
    stop: () => parts.teardown.run(),
  };
}
