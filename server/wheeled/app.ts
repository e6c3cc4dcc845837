/**
 * The wheeled server: `createWheeledApp(deps)` hands its routes and socket handlers to the shared
 * builder (server/http/cockpit-app.ts), which orders the middleware, checks the table against
 * the wheeled server's (routes/spec-routes.ts), mounts it behind the shared access gate and gives the hub
 * its socket routes; it never listens (docs/architecture.md, "House style", "build apart from
 * listen").
 * startWheeledServer (index.ts) owns the sockets.
 */
import type { GateDeps } from '../http/access-gate.ts';
import { createCockpitApp, type CockpitApp } from '../http/cockpit-app.ts';
import type { HostAllowlist } from '../http/host-allowlist.ts';
import type { RouteSpec } from '../http/route-table.ts';
import type { WsHandler, WsHub } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import { completeWheeledRoutes } from './routes/spec-routes.ts';

export interface WheeledAppDeps {
  log: Log;
  /** B's gate: the shared one with the JWT check and no loopback trust. */
  gate: GateDeps;
  /** The hub built before the features (cockpit-app.ts, createSocketHub); its own when absent. */
  hub?: WsHub;
  /** Every route of the table, implemented (spec-routes.ts checks them against it). */
  routes: readonly RouteSpec[];
  /** What each socket path does with a client once the hub admitted it. */
  sockets: Record<string, WsHandler>;
  /** Host names this robot answers to (DNS rebinding defence), on HTTP and socket upgrades alike. */
  hosts: HostAllowlist;
}

export type WheeledApp = CockpitApp;

export function createWheeledApp(deps: WheeledAppDeps): WheeledApp {
  return createCockpitApp({ ...deps, complete: completeWheeledRoutes });
}
