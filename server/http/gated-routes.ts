/**
 * The route table mounted behind the access gate, for both servers (server/http/cockpit-app.ts):
 * every HTTP route gets its own gate in front of its handler (docs/architecture.md, "Requests").
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { accessGate, type GateDeps } from './access-gate.ts';
import { isApiPath, type RouteSpec } from './route-table.ts';

/** Hears a request the access gate refused before the route's handler ran (the black box records it). */
export type GateRefused = (route: RouteSpec, ctx: Context, error: unknown) => void;

type Handle = (ctx: Context, next: Next) => Promise<unknown>;

const isExactPath = (path: string) => !/[:{*(]/.test(path);

/** The gate, telling `onRefused` when it refuses (it throws before calling the handler). */
function observedGate(route: RouteSpec, gate: Handle, onRefused: GateRefused | undefined): Handle {
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

/** Mounts the table's HTTP routes on `koa`, each behind its gate (WS routes are the hub's). */
export function mountGatedRoutes(
  koa: Koa,
  routes: readonly RouteSpec[],
  deps: GateDeps,
  onRefused?: GateRefused,
): void {
  // Two routers: the shell's catch-all (GET /{*path}) matches every path, so in one router an
  // unknown API path answered OPTIONS with 200 "Allow: HEAD, GET" and other methods with 405,
  // where GET says 404. API paths are matched against API routes only, and a miss is a 404.
  const api = new Router();
  const pages = new Router();
  const exact = new Map<string, Handle>();
  for (const route of routes) {
    if (route.method === 'WS' || !route.handler) continue;
    const verb = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const gate = observedGate(route, accessGate(route, deps), onRefused);
    (isApiPath(route.path) ? api : pages)[verb](route.path, gate, route.handler);
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
  const serve = (router: Router): Koa.Middleware => {
    const matched = router.routes() as Koa.Middleware;
    const allowed = router.allowedMethods() as Koa.Middleware;
    return (ctx, next) => matched(ctx, () => allowed(ctx, next));
  };
  const serveApi = serve(api);
  const servePages = serve(pages);
  koa.use((ctx, next) => (isApiPath(ctx.path) ? serveApi(ctx, next) : servePages(ctx, next)));
}
