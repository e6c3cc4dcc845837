/**
 * The simulator's HTTP request handler: /sim controls first, then the daemon API behind the
 * fault switches (added latency, hang) and the backend gate, with FastAPI's error envelopes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimContext } from './context.ts';
import { DAEMON_VERSION } from './fixtures.ts';
import {
  DetailError,
  errorReply,
  INTERNAL_ERROR,
  matchRoute,
  openApiDocument,
  route,
  send,
  type Reply,
  type Route,
  type SimRequest,
} from './http-kit.ts';
import { guardRequest } from './network-guard.ts';
import { ValidationError } from './pydantic.ts';
import { appRoutes } from './routes-apps.ts';
import { daemonRoutes } from './routes-daemon.ts';
import { mediaRoutes } from './routes-media.ts';
import { miscRoutes } from './routes-misc.ts';
import { moveRoutes } from './routes-move.ts';
import { simRoutes } from './routes-sim.ts';
import { soundRoutes } from './routes-sounds.ts';
import { stateRoutes } from './routes-state.ts';
import { messageOf } from '../errors.ts';

const BACKEND_DOWN: Reply = { status: 503, json: { detail: 'Backend not running' } };
const NOT_FOUND: Reply = { status: 404, json: { detail: 'Not Found' } };
const NOT_ALLOWED: Reply = { status: 405, json: { detail: 'Method Not Allowed' } };

type BodyResult = { ok: true; body: Buffer } | { ok: false; limit: number };

/** Reads the body; past `limit` it stops early, like the daemon's MaxBodySizeMiddleware. */
function readBody(req: IncomingMessage, limit = Infinity): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) return Promise.resolve({ ok: false, limit });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve({ ok: false, limit });
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve({ ok: true, body: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

function tooLarge(limit: number): Reply {
  return { status: 413, json: { detail: `Request body too large; maximum is ${limit} bytes` } };
}

export interface RequestHandler {
  (req: IncomingMessage, res: ServerResponse): void;
}

interface Dispatcher {
  ctx: SimContext;
  routes: Route[];
  /** Apply the backend gate (daemon routes only). */
  gate: boolean;
}

async function dispatch(d: Dispatcher, req: IncomingMessage, url: URL): Promise<Reply> {
  const match = matchRoute(d.routes, req.method ?? 'GET', url.pathname);
  if ('status' in match) return match.status === 404 ? NOT_FOUND : NOT_ALLOWED;
  // FastAPI resolves the get_backend dependency before validating parameters.
  if (d.gate && match.route.backend && !d.ctx.lifecycle.ready) return BACKEND_DOWN;
  const read = await readBody(req, match.route.maxBody);
  if (!read.ok) return tooLarge(read.limit);
  const simReq: SimRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    params: match.params,
    headers: req.headers,
    body: read.body,
  };
  return match.route.handle(simReq);
}

async function handleApi(d: Dispatcher, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const { ctx } = d;
  ctx.counters.httpRequests += 1;
  // Hang: the connection is accepted, but no answer ever comes.
  if (ctx.faults.hang) return;
  if (ctx.faults.latencyMs > 0) {
    const held = `${req.method ?? 'GET'} ${url.pathname}`;
    ctx.counters.heldByLatency.push(held);
    await ctx.timers.sleep(ctx.faults.latencyMs);
    ctx.counters.heldByLatency.splice(ctx.counters.heldByLatency.indexOf(held), 1);
  }
  let reply: Reply;
  const refused = guardRequest(req.headers, req.method ?? 'GET');
  try {
    reply = refused ? { status: refused.status, json: { detail: refused.detail } } : await dispatch(d, req, url);
  } catch (error) {
    if (!(error instanceof DetailError) && !(error instanceof ValidationError)) {
      ctx.log.debug('uncaught error in a daemon route (served as 500)', { error: String(error) });
    }
    reply = errorReply(error);
  }
  send(res, reply);
}

/** /sim routes answer their own errors as `{"error": message}`. */
async function handleSim(d: Dispatcher, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    send(res, await dispatch(d, req, url));
  } catch (error) {
    const status = error instanceof DetailError ? error.status : 500;
    send(res, { status, json: { error: messageOf(error) } });
  }
}

export function createRequestHandler(ctx: SimContext): RequestHandler {
  const api: Dispatcher = {
    ctx,
    gate: true,
    routes: [
      ...stateRoutes(ctx),
      ...moveRoutes(ctx),
      ...daemonRoutes(ctx),
      ...mediaRoutes(ctx),
      ...soundRoutes(ctx),
      ...miscRoutes(ctx),
      ...appRoutes(ctx),
    ],
  };
  // Built at request time, so routes added to the list later are listed too; FastAPI does not
  // list the document itself.
  const documented = () => api.routes.filter((r) => r.path !== '/openapi.json');
  api.routes.push(route('GET', '/openapi.json', () => ({ json: openApiDocument(documented(), DAEMON_VERSION) })));
  const sim: Dispatcher = { ctx, gate: false, routes: simRoutes(ctx) };
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const work = url.pathname.startsWith('/sim/') ? handleSim(sim, req, res, url) : handleApi(api, req, res, url);
    work.catch((error: unknown) => {
      ctx.log.warn('sim request failed', { error: String(error) });
      send(res, INTERNAL_ERROR);
    });
  };
}
