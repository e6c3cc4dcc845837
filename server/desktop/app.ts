/**
 * The desktop server: `createDesktopApp(deps)` builds Koa, orders middleware and mounts the route table;
 * it never listens (docs/architecture.md, "House style", "build apart from listen"). The entry owns the sockets.
 */
import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { Config } from '../config.ts';
import type { HealthFrame, StateFrame } from '../contract/ws.ts';
import { accessGate, type GateDeps } from '../http/access-gate.ts';
import { errorHandler } from '../http/error-handler.ts';
import { onResponseError, refuseMalformed } from '../http/malformed-request.ts';
import type { HostAllowlist } from '../http/host-allowlist.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { requestTiming } from '../http/request-timing.ts';
import { defineRoutes, type RouteSpec } from '../http/route-table.ts';
import { createShellHandler, type ShellExtras } from '../http/static-shell.ts';
import { WsHub, type WsHandler } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import type { RobotCore } from './robot-core.ts';
import { readRoutes } from './routes/read-routes.ts';
import { completeServerARoutes } from './routes/spec-routes.ts';
import { startStateBroadcast } from './state-broadcaster.ts';

export interface DesktopDeps {
  config: Pick<Config, 'wsHz' | 'loopbackReads'>;
  log: Log;
  robot: RobotCore;
  gate: GateDeps;
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
  onGateRefused?: (route: RouteSpec, ctx: Context, error: unknown) => void;
}

export interface DesktopApp {
  koa: Koa;
  routes: readonly RouteSpec[];
  hub: WsHub;
  /** Starts the periodic /ws broadcast; returns its stopper. */
  startBroadcast(): () => void;
}

const isExactPath = (path: string) => !/[:{*(]/.test(path);

/** The gate, telling `onRefused` when it refuses (it throws before calling the handler). */
function observedGate(
  route: RouteSpec,
  gate: (ctx: Context, next: Next) => Promise<unknown>,
  onRefused: DesktopDeps['onGateRefused'],
): (ctx: Context, next: Next) => Promise<unknown> {
  // Only control routes: the hot read paths keep the bare gate (measured in the throughput bench).
  if (!onRefused || !route.control) return gate;
  return async (ctx, next) => {
    let passed = false;
    try {
      return await gate(ctx, () => {
        passed = true;
        return next();
      });
    } catch (error) {
      if (!passed) onRefused(route, ctx, error);
      throw error;
    }
  };
}

export function createDesktopApp(deps: DesktopDeps): DesktopApp {
  const shell = createShellHandler({ root: deps.shellRoot, extras: deps.shellExtras ?? {} });
  const routes = defineRoutes(
    completeServerARoutes([
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
    ]),
  );

  const koa = new Koa({ proxy: false });
  koa.on('error', onResponseError(deps.log));
  koa.use(refuseMalformed());
  koa.use(requestTiming(deps.onControlLatency));
  koa.use(errorHandler(deps.log.child('http')));
  koa.use(securityHeaders(deps.hosts));
  const router = new Router();
  const exact = new Map<string, (ctx: Context, next: Next) => Promise<unknown>>();
  for (const route of routes) {
    if (route.method === 'WS' || !route.handler) continue;
    const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const gate = observedGate(route, accessGate(route, deps.gate), deps.onGateRefused);
    router[verb](route.path, gate, route.handler);
    const handler = route.handler;
    if (isExactPath(route.path))
      exact.set(`${route.method} ${route.path}`, (ctx) => gate(ctx, async () => handler(ctx)));
  }
  // Most routes have fixed paths: a map finds them in one step instead of testing every route's
  // pattern (measured in the throughput benchmark). The router still serves parameterised paths,
  // HEAD and the 405 answers, with the same gate in front.
  koa.use((ctx, next) => {
    const handle = exact.get(`${ctx.method} ${ctx.path}`);
    return handle ? handle(ctx, next) : next();
  });
  koa.use(router.routes()).use(router.allowedMethods());

  const hub = new WsHub({
    routes,
    handlers: {
      '/ws': (client) => {
        const state = deps.robot.state();
        if (state) client.send({ type: 'state', ...state } satisfies StateFrame);
        client.send({ type: 'health', ...deps.robot.health() } satisfies HealthFrame);
        deps.onSocket?.(client);
      },
    },
    credentials: deps.gate.credentials,
    loopbackReads: deps.config.loopbackReads,
    hosts: deps.hosts,
    ...(deps.gate.failures ? { failures: deps.gate.failures } : {}),
    log: deps.log.child('ws'),
  });
  return { koa, routes, hub, startBroadcast: () => startStateBroadcast(deps.robot, hub, deps.config.wsHz) };
}
