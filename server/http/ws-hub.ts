/**
 * WebSocket upgrades for every WS route in the table. Anonymous sockets are accepted and then
 * closed with 4401, unknown paths with 4404 (cockpit-api.md, Authentication rule 4), so a
 * browser sees a close code rather than a bare failed handshake. A slow client drops frames
 * instead of buffering without bound.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { WS_CLOSE } from '../errors.ts';
import type { Log } from '../log.ts';
import type { HostAllowlist } from './host-allowlist.ts';
import { isAllowed } from './access-gate.ts';
import { resolveCaller, SESSION_COOKIE, type Caller, type CredentialSources } from './caller.ts';
import type { RouteSpec } from './route-table.ts';

/** Past this many queued bytes a client is too slow: frames are dropped for it. */
const MAX_BUFFERED = 512 * 1024;
const PING_INTERVAL_MS = 20_000;

export interface WsClient {
  readonly ws: WebSocket;
  readonly caller: Caller;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Sends unless the client is slow or gone; returns whether it was sent. */
  send(frame: string | object): boolean;
}

export type WsHandler = (client: WsClient) => void;

export interface WsHubOptions {
  routes: readonly RouteSpec[];
  handlers: Record<string, WsHandler>;
  credentials: CredentialSources;
  loopbackReads: boolean;
  log: Log;
  /** Sockets from pages on a foreign host name are refused (DNS rebinding). */
  hosts?: HostAllowlist;
}

export class WsHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });
  private readonly clientsByPath = new Map<string, Set<WsClient>>();
  private readonly pingTimer: NodeJS.Timeout;
  private dropped = 0;
  /** Answered the last ping; a socket that misses one is terminated at the next. */
  private readonly alive = new WeakMap<WebSocket, boolean>();

  constructor(private readonly options: WsHubOptions) {
    this.pingTimer = setInterval(() => this.pingAll(), PING_INTERVAL_MS);
    this.pingTimer.unref();
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  clients(path: string): ReadonlySet<WsClient> {
    return this.clientsByPath.get(path) ?? new Set();
  }

  /** Serialise once, send to every client of a path. */
  broadcast(path: string, frame: string | object): number {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    let sent = 0;
    for (const client of this.clients(path)) if (client.send(text)) sent += 1;
    return sent;
  }

  /** Frames dropped for slow clients since start. */
  droppedFrames(): number {
    return this.dropped;
  }

  /** Ends every socket of a session that ended (logout, expiry, deleted passkey) at once. */
  closeSession(sessionKey: string): void {
    for (const set of this.clientsByPath.values()) {
      for (const c of set) if (c.caller.sessionKey === sessionKey) c.ws.close(WS_CLOSE.UNAUTHORIZED, 'session ended');
    }
  }

  closeAll(code: number = WS_CLOSE.GOING_AWAY, reason = 'server shutting down'): void {
    clearInterval(this.pingTimer);
    for (const set of this.clientsByPath.values()) for (const c of set) c.ws.close(code, reason);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = this.options.routes.find((r) => r.method === 'WS' && r.path === url.pathname);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (this.options.hosts && !this.options.hosts.allows(req.headers.host)) return ws.close(WS_CLOSE.FORBIDDEN, 'unknown host');
      if (!route) return ws.close(WS_CLOSE.NOT_FOUND, 'no such socket');
      const caller = resolveCaller(
        { req, queryTokenAllowed: route.queryToken === true, query: url.searchParams, cookie: cookieOf(req) },
        this.options.credentials,
      );
      if (!isAllowed(route, caller, this.options.loopbackReads)) return ws.close(WS_CLOSE.UNAUTHORIZED, 'unauthorized');
      this.admit(ws, caller, route.path, url.searchParams);
    });
  }

  private admit(ws: WebSocket, caller: Caller, path: string, query: URLSearchParams): void {
    const client: WsClient = {
      ws,
      caller,
      path,
      query,
      send: (frame) => this.sendTo(ws, frame),
    };
    const set = this.clientsByPath.get(path) ?? new Set();
    this.clientsByPath.set(path, set);
    set.add(client);
    this.alive.set(ws, true);
    ws.on('pong', () => this.alive.set(ws, true));
    // Credentials are checked again when a passkey session runs out.
    const expiry = caller.expiresAt
      ? setTimeout(() => ws.close(WS_CLOSE.UNAUTHORIZED, 'session expired'), Math.max(0, caller.expiresAt - Date.now()))
      : undefined;
    expiry?.unref();
    ws.on('error', (err) => this.options.log.debug('socket error', { path, error: err.message }));
    ws.on('close', () => {
      clearTimeout(expiry);
      set.delete(client);
    });
    const handler = this.options.handlers[path];
    if (handler) handler(client);
  }

  private sendTo(ws: WebSocket, frame: string | object): boolean {
    if (ws.readyState !== WebSocket.OPEN) return false;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      this.dropped += 1;
      return false;
    }
    ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    return true;
  }

  private pingAll(): void {
    for (const set of this.clientsByPath.values()) {
      for (const { ws } of set) {
        if (this.alive.get(ws) === false) {
          ws.terminate();
          continue;
        }
        this.alive.set(ws, false);
        ws.ping();
      }
    }
  }
}

function cookieOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}
