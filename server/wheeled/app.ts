/**
 * The wheeled server: `createWheeledApp(deps)` builds Koa, orders the middleware, mounts the route table
 * behind the shared access gate and builds the WebSocket hub; it never listens (docs/architecture.md, "House style", "build apart from listen"). startWheeledServer (index.ts) owns the sockets.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { accessGate, type GateDeps } from '../http/access-gate.ts';
import { errorHandler } from '../http/error-handler.ts';
import { onResponseError, refuseMalformed } from '../http/malformed-request.ts';
import type { HostAllowlist } from '../http/host-allowlist.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { defineRoutes, type RouteSpec } from '../http/route-table.ts';
import { WsHub, type WsHandler } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import { completeServerBRoutes } from './routes/spec-routes.ts';

export interface WheeledAppDeps {
  log: Log;
  /** B's gate: the shared one with the JWT check and no loopback trust. */
  gate: GateDeps;
  /** Every route of the table, implemented (spec-routes.ts checks them against it). */
  routes: readonly RouteSpec[];
  /** What each socket path does with a client once the hub admitted it. */
  sockets: Record<string, WsHandler>;
  /** Host names this robot answers to (DNS rebinding defence), on HTTP and socket upgrades alike. */
  hosts: HostAllowlist;
}

export interface WheeledApp {
  koa: Koa;
  routes: readonly RouteSpec[];
  hub: WsHub;
}

export function createWheeledApp(deps: WheeledAppDeps): WheeledApp {
  const routes = defineRoutes(completeServerBRoutes(deps.routes));
  const koa = new Koa({ proxy: false });
  koa.on('error', onResponseError(deps.log));
  koa.use(refuseMalformed());
  koa.use(errorHandler(deps.log.child('http')));
  koa.use(securityHeaders(deps.hosts));
  const router = new Router();
  for (const route of routes) {
    if (route.method === 'WS' || !route.handler) continue;
    const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[verb](route.path, accessGate(route, deps.gate), route.handler);
  }
  koa.use(router.routes()).use(router.allowedMethods());
  const hub = new WsHub({
    routes,
    handlers: deps.sockets,
    credentials: deps.gate.credentials,
    loopbackReads: deps.gate.loopbackReads,
    hosts: deps.hosts,
    ...(deps.gate.failures ? { failures: deps.gate.failures } : {}),
    log: deps.log.child('ws'),
  });
  return { koa, routes, hub };
}
