/**
 * The daemon's WebSockets (docs/daemon.md, "The protocol as the cockpit uses it"): the state stream, move updates and streamed
 * set_target. Unknown paths get 403 at the upgrade, as uvicorn answers. When the backend goes
 * down the state streams are dropped without a close frame; set_target sockets stay open but
 * stay bound to the backend they were opened on, so after a restart they go silently dead.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { guardRequest } from './network-guard.ts';
import type { SimContext } from './context.ts';
import { readFlags } from './flags.ts';
import { parseFullBodyTarget } from './models.ts';
import { ValidationError, validationText } from './pydantic.ts';
import { applyTarget } from './routes-move.ts';
import { APPS_JOB_SOCKET_PREFIX, openAppJobSocket } from './ws-apps.ts';
import { fullState, WS_STATE_FLAGS } from './state-body.ts';
import { DAEMON_LOG_SOCKET, openDaemonLogSocket } from './daemon-log.ts';

/** Policy violation: the close code FastAPI uses for a rejected WebSocket request. */
const WS_POLICY_VIOLATION = 1008;

export interface SimSockets {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

function reject(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
}

export function createSimSockets(ctx: SimContext): SimSockets {
  const wss = new WebSocketServer({ noServer: true });
  const streams = new Set<WebSocket>();
  ctx.lifecycle.onDown(() => {
    for (const ws of streams) ws.terminate();
  });

  const endpoints: Record<string, { backend: boolean; open: (ws: WebSocket, query: URLSearchParams) => void }> = {
    '/api/state/ws/full': { backend: true, open: (ws, q) => openState(ctx, ws, q, streams) },
    '/api/move/ws/updates': { backend: false, open: (ws) => openUpdates(ctx, ws) },
    '/api/move/ws/set_target': { backend: true, open: (ws) => openSetTarget(ctx, ws) },
  };

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://sim.invalid');
      if (url.pathname.startsWith(APPS_JOB_SOCKET_PREFIX)) {
        const jobId = decodeURIComponent(url.pathname.slice(APPS_JOB_SOCKET_PREFIX.length));
        return wss.handleUpgrade(req, socket, head, (ws) => openAppJobSocket(ctx.apps.jobs, ws, jobId));
      }
      // The daemon's log stream exists on Wireless builds only (the router is included then).
      if (url.pathname === DAEMON_LOG_SOCKET && ctx.wireless)
        return wss.handleUpgrade(req, socket, head, (ws) => openDaemonLogSocket(ctx.daemonLog, ws));
      const endpoint = endpoints[url.pathname];
      // ws_get_backend raises before accept, which uvicorn turns into a 403 as well; so does the
      // local-network guard's close before accept.
      if (guardRequest(req.headers, 'GET', true)) return reject(socket, '403 Forbidden');
      if (!endpoint || (endpoint.backend && !ctx.lifecycle.ready)) return reject(socket, '403 Forbidden');
      wss.handleUpgrade(req, socket, head, (ws) => endpoint.open(ws, url.searchParams));
    },
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function count(
  ctx: SimContext,
  ws: WebSocket,
  key: 'stateWsClients' | 'updatesWsClients' | 'setTargetWsClients',
): void {
  ctx.counters[key] += 1;
  ws.once('close', () => {
    ctx.counters[key] -= 1;
  });
}

function openState(ctx: SimContext, ws: WebSocket, query: URLSearchParams, streams: Set<WebSocket>): void {
  count(ctx, ws, 'stateWsClients');
  const { values, errors } = readFlags(query, WS_STATE_FLAGS);
  const frequency = query.has('frequency') ? Number(query.get('frequency')) : 10;
  // The real daemon crashes on 0 and floods on negatives (docs/daemon.md, "The protocol as the cockpit uses it"); the simulator refuses outside 1..50.
  if (errors.length > 0 || !Number.isFinite(frequency) || frequency < 1 || frequency > 50) {
    ws.close(WS_POLICY_VIOLATION, errors.length > 0 ? 'invalid query' : 'frequency must be within 1..50');
    return;
  }
  streams.add(ws);
  ctx.counters.stateStreamRates.push(frequency);
  let cancel: (() => void) | undefined;
  // Like the real handler: send, then sleep a full period, so the delivered rate is a bit under.
  const loop = (): void => {
    if (ws.readyState !== ws.OPEN || !ctx.lifecycle.ready) return;
    ws.send(JSON.stringify(fullState(ctx, { ...values, with_control_mode: true })));
    cancel = ctx.timers.after(1000 / frequency, loop);
  };
  ws.on('close', () => {
    streams.delete(ws);
    const rates = ctx.counters.stateStreamRates;
    rates.splice(rates.indexOf(frequency), 1);
    cancel?.();
  });
  ws.on('error', () => ws.terminate());
  loop();
}

function openUpdates(ctx: SimContext, ws: WebSocket): void {
  count(ctx, ws, 'updatesWsClients');
  const off = ctx.moves.onEvent((event) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
  });
  ws.on('close', off);
  ws.on('error', () => ws.terminate());
}

function openSetTarget(ctx: SimContext, ws: WebSocket): void {
  count(ctx, ws, 'setTargetWsClients');
  const generation = ctx.lifecycle.generation;
  ws.on('message', (data) => {
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch (error) {
      const detail = `1 validation error for FullBodyTarget\n  Invalid JSON: ${String((error as Error).message)} [type=json_invalid, input_value='${text.slice(0, 60)}', input_type=str]`;
      ws.send(JSON.stringify({ status: 'error', detail }));
      return;
    }
    try {
      const target = parseFullBodyTarget(body);
      // A socket opened on an earlier backend writes into the void, silently (docs/daemon.md, "The protocol as the cockpit uses it").
      if (generation === ctx.lifecycle.generation && ctx.lifecycle.ready) applyTarget(ctx, target);
    } catch (error) {
      const detail = error instanceof ValidationError ? validationText('FullBodyTarget', error.errors) : String(error);
      ws.send(JSON.stringify({ status: 'error', detail }));
    }
  });
  ws.on('error', () => ws.terminate());
}
