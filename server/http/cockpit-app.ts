/**
 * The one app builder of both servers: `createCockpitApp(deps)` builds Koa with the middleware in
 * their order, checks the routes against the server's declared table, mounts them behind the
 * access gate and gives the socket routes to the WebSocket hub. It never listens
 * (docs/architecture.md, "House style", "build apart from listen"); server/desktop/app.ts and
 * server/wheeled/app.ts pass what differs. The entries build the hub first (`createSocketHub`),
 * before the features that broadcast on it (docs/architecture.md, "Build order").
 */
import Koa from 'koa';
import type { Log } from '../log.ts';
import type { GateDeps } from './access-gate.ts';
import { errorHandler } from './error-handler.ts';
import { mountGatedRoutes, type GateRefused } from './gated-routes.ts';
import type { HostAllowlist } from './host-allowlist.ts';
import { onResponseError, refuseMalformed } from './malformed-request.ts';
import { requestTiming } from './request-timing.ts';
import { defineRoutes, type RouteSpec } from './route-table.ts';
import { securityHeaders } from './security-headers.ts';
import { WsHub, type WsHandler } from './ws-hub.ts';

export type { GateRefused } from './gated-routes.ts';

/** What the hub needs before any route exists: the server's gate, its host names and a log. */
export interface SocketHubDeps {
  log: Log;
  gate: GateDeps;
  hosts: HostAllowlist;
}

/** The server's WebSocket hub, checking sockets with the same gate as HTTP; its routes come at mount. */
export function createSocketHub(deps: SocketHubDeps): WsHub {
  return new WsHub({
    credentials: deps.gate.credentials,
    loopbackReads: deps.gate.loopbackReads,
    hosts: deps.hosts,
    ...(deps.gate.failures ? { failures: deps.gate.failures } : {}),
    ...(deps.gate.allowedOrigins ? { allowedOrigins: deps.gate.allowedOrigins } : {}),
    log: deps.log.child('ws'),
  });
}

export interface CockpitAppDeps {
  log: Log;
  /**
   * The server's hub, built by the entry before the features (createSocketHub with the same gate
   * and hosts); an app built alone, as in tests, gets its own.
   */
  hub?: WsHub;
  /** The server's access gate (credentials, throttle, control guard); the hub checks sockets with it too. */
  gate: GateDeps;
  /** Every implemented route. */
  routes: readonly RouteSpec[];
  /**
   * The server's declared table (completeDesktopRoutes, completeWheeledRoutes): returns the
   * routes in the table's order and throws when a declared route is missing or differs, so a
   * build with a gap fails at start rather than answering for it.
   */
  complete: (implemented: readonly RouteSpec[]) => RouteSpec[];
  /** What each socket path does with a client once the hub admitted it. */
  sockets: Record<string, WsHandler>;
  /** Host names this robot answers to (DNS rebinding defence), on HTTP and socket upgrades alike. */
  hosts: HostAllowlist;
  /** Hears each control request's time from arrival to the daemon's first answer, in ms. */
  onControlLatency?: (ms: number) => void;
  /** A control request the access gate refused before its route's handler. */
  onGateRefused?: GateRefused;
}

export interface CockpitApp {
  koa: Koa;
  routes: readonly RouteSpec[];
  hub: WsHub;
}

export function createCockpitApp(deps: CockpitAppDeps): CockpitApp {
  const routes = defineRoutes(deps.complete(deps.routes));
  const koa = new Koa({ proxy: false });
  koa.on('error', onResponseError(deps.log));
  // The order of docs/architecture.md, "Processes and data flow": an unparseable request is
  // refused before anything reads its path; whatever the later steps throw becomes `{error, code}`
  // with the security headers on it; the Host check runs before any route's gate.
  koa.use(refuseMalformed());
  koa.use(requestTiming(deps.onControlLatency));
  koa.use(errorHandler(deps.log.child('http')));
  koa.use(securityHeaders(deps.hosts));
  mountGatedRoutes(koa, routes, deps.gate, deps.onGateRefused);
  // The one place the hub learns its routes: the checked table, so a socket is admitted by the
  // same access declaration as HTTP. Features only ever see its broadcast, never this.
  const hub = deps.hub ?? createSocketHub(deps);
  hub.mount({ routes, handlers: deps.sockets });
  return { koa, routes, hub };
}
