/**
 * The desktop server: `createDesktopApp(deps)` adds the read side, the dashboard shell and the /ws
 * greeting to the features' routes and hands them to the shared builder (server/http/cockpit-app.ts),
 * which orders the middleware, checks the table and mounts the hub's routes; it never listens
 * (docs/architecture.md, "House style", "build apart from listen"). The entry owns the sockets.
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { GateDeps } from '../http/access-gate.ts';
import { startBroadcast } from '../http/broadcast-ticker.ts';
import { createCockpitApp, type CockpitApp, type GateRefused } from '../http/cockpit-app.ts';
import type { HealthFrame, StateFrame } from '../contract/ws.ts';
import type { HostAllowlist } from '../http/host-allowlist.ts';
import type { RouteSpec } from '../http/route-table.ts';
import { createShellHandler, type ShellExtras } from '../http/static-shell.ts';
import type { WsHandler, WsHub } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import type { RobotCore } from './robot-core.ts';
import { readRoutes } from './routes/read-routes.ts';
import { completeDesktopRoutes } from './routes/spec-routes.ts';
import { DESKTOP_SOCKET, desktopFeeds } from './ws-feeds.ts';

export interface DesktopDeps {
  config: Pick<Config, 'wsHz'>;
  log: Log;
  robot: RobotCore;
  gate: GateDeps;
  /** The hub built before the features (cockpit-app.ts, createSocketHub); its own when absent. */
  hub?: WsHub;
  /** Routes of features and of the access model, beyond the read side built here. */
  routes: RouteSpec[];
  /** Folder of the built dashboard (dist/renderer). */
  shellRoot: string;
  /** Files the shell serves besides the build (the CA certificate and trust page). */
  shellExtras?: ShellExtras;
  /** What to do with a /ws client beyond the first frames (e.g. joystick messages). */
  onSocket?: WsHandler;
  /** Host names this robot answers to (DNS rebinding defence). */
  hosts: HostAllowlist;
  /** Hears each control request's time from arrival to the daemon's first answer, in ms. */
  onControlLatency?: (ms: number) => void;
  /** A control request the access gate refused before its route's handler (the black box records it). */
  onGateRefused?: GateRefused;
  /** The broadcast's clock; real time unless a test moves it. */
  clock?: TimerClock;
}

export interface DesktopApp extends CockpitApp {
  /** Starts the periodic /ws broadcast; returns its stopper. */
  startBroadcast(): () => void;
}

export function createDesktopApp(deps: DesktopDeps): DesktopApp {
  const shell = createShellHandler({ root: deps.shellRoot, extras: deps.shellExtras ?? {}, robotKind: 'desktop' });
  const app = createCockpitApp({
    log: deps.log,
    gate: deps.gate,
    ...(deps.hub ? { hub: deps.hub } : {}),
    routes: [
      ...readRoutes(deps.robot),
      ...deps.routes,
      { method: 'GET', path: '/', access: 'public', summary: 'dashboard shell (no-cache)', handler: shell },
      {
        method: 'GET',
        path: '/{*path}',
        access: 'public',
        summary: 'static assets, single-page fallback',
        handler: shell,
      },
    ],
    complete: completeDesktopRoutes,
    sockets: {
      [DESKTOP_SOCKET]: (client) => {
        const state = deps.robot.state();
        if (state) client.send({ type: 'state', ...state } satisfies StateFrame);
        client.send({ type: 'health', ...deps.robot.health() } satisfies HealthFrame);
        deps.onSocket?.(client);
      },
    },
    hosts: deps.hosts,
    onControlLatency: deps.onControlLatency,
    onGateRefused: deps.onGateRefused,
  });
  // The daemon streams state at the full rate only while a dashboard watches (docs/daemon.md, "State stream rate").
  app.hub.onClientsChanged((path, count) => {
    if (path === DESKTOP_SOCKET) deps.robot.feed.setWatched(count > 0);
  });
  const broadcast = {
    clock: deps.clock ?? systemClock,
    hz: deps.config.wsHz,
    hub: app.hub,
    path: DESKTOP_SOCKET,
    feeds: desktopFeeds(deps.robot),
    onError: (error: unknown) => deps.log.warn('a /ws broadcast feed failed', { error: String(error) }),
  };
  return { ...app, startBroadcast: () => startBroadcast(broadcast) };
}
