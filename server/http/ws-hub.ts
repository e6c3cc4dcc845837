/**
 * WebSocket upgrades for every WS route in the table. Anonymous sockets are accepted and then
 * closed with 4401, unknown paths with 4404 (docs/contract.md, "Authentication"), so a
 * browser sees a close code rather than a bare failed handshake. A slow client drops frames
 * instead of buffering without bound.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { realSchedule, type Schedule } from '../clock.ts';
import { WS_CLOSE } from '../errors.ts';
import type { Log } from '../log.ts';
import type { HostAllowlist } from './host-allowlist.ts';
import { isAllowed, type GateDeps } from './access-gate.ts';
import { hasKey, resolveCaller, type Caller, type CredentialSources } from './caller.ts';
import { DRAIN_MS } from './listeners.ts';
import { readRequest } from './malformed-request.ts';
import { answerWithoutUpgrade, upgradesToAnotherProtocol } from './other-upgrade.ts';
import { fromForeignPage } from './origin-check.ts';
import { checkUpgradeHeaders, readSessionCookie } from './untrusted-input.ts';
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
  /** Listens to the client's messages; a listener that throws closes this socket alone (1011). */
  onMessage(listener: (data: RawData, isBinary: boolean) => void): void;
}

export type WsHandler = (client: WsClient) => void;

/** The socket routes of the table and what each path does with an admitted client. */
export interface WsSockets {
  routes: readonly RouteSpec[];
  handlers: Record<string, WsHandler>;
}

/** Who may open a socket: what the hub needs before any route exists. */
export interface WsHubOptions {
  credentials: CredentialSources;
  loopbackReads: boolean;
  log: Log;
  /** Sockets from pages on a foreign host name are refused (DNS rebinding). */
  hosts?: HostAllowlist;
  /** The brute-force throttle the HTTP gate uses: a wrong credential on a socket counts the same. */
  failures?: GateDeps['failures'];
  /** Origins besides the request's own whose pages may open sockets (ROBOT_ORIGIN). */
  allowedOrigins?: readonly string[];
  /** Runs the cut of sockets whose clients never answered the hub's close (real timers by default). */
  schedule?: Schedule;
}

export class WsHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });
  private readonly clientsByPath = new Map<string, Set<WsClient>>();
  private readonly pingTimer: NodeJS.Timeout;
  private dropped = 0;
  private sockets: WsSockets | undefined;
  private readonly countListeners = new Set<(path: string, count: number) => void>();
  /** Answered the last ping; a socket that misses one is terminated at the next. */
  private readonly alive = new WeakMap<WebSocket, boolean>();
  /** closeAll has run: the server is stopping and admits no socket any more. */
  private closing = false;
  /** Upgrades held back for a wrong credential (throttle), each completing itself when run. */
  private readonly heldBack = new Set<() => void>();
  /** Sockets of requests answered without their Upgrade (other-upgrade.ts), until each closes. */
  private readonly answering = new Set<Duplex>();

  constructor(private readonly options: WsHubOptions) {
    this.pingTimer = setInterval(() => this.pingAll(), PING_INTERVAL_MS);
    this.pingTimer.unref();
  }

  /**
   * The hub exists before the features so they can be handed its broadcast when they are built
   * (docs/architecture.md, "Build order"); its routes come from the table those features make, so
   * the app builder (cockpit-app.ts) gives them here, once, before any listener is attached. An
   * upgrade before that finds no route and is closed 4404 like an unknown path.
   */
  mount(sockets: WsSockets): void {
    if (this.sockets) throw new Error('the socket hub is already mounted');
    this.sockets = sockets;
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!upgradesToAnotherProtocol(req, head)) return this.upgrade(req, socket, head);
      // The listener's drain never sees a socket Node handed over: the hub ends it at shutdown.
      this.answering.add(socket);
      socket.once('close', () => this.answering.delete(socket));
      answerWithoutUpgrade(server, req, socket);
    });
  }

  clients(path: string): ReadonlySet<WsClient> {
    return this.clientsByPath.get(path) ?? new Set();
  }

  /** Serialise once, send to every client of a path. */
  broadcast(path: string, frame: string | object): number {
    const clients = this.clients(path);
    // Nobody to send to: no serialising either (features broadcast whether or not anyone watches).
    if (clients.size === 0) return 0;
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    let sent = 0;
    for (const client of clients) if (client.send(text)) sent += 1;
    return sent;
  }

  /** Hears a path's number of open sockets each time one opens or closes. */
  onClientsChanged(listener: (path: string, count: number) => void): () => void {
    this.countListeners.add(listener);
    return () => this.countListeners.delete(listener);
  }

  private countChanged(path: string, count: number): void {
    for (const listener of this.countListeners) {
      // A listener's fault is logged; it must not keep a socket from opening or closing.
      try {
        listener(path, count);
      } catch (err) {
        this.options.log.warn('socket count listener failed', { path, error: String((err as Error)?.stack ?? err) });
      }
    }
  }

  /** Frames dropped for slow clients since start. */
  droppedFrames(): number {
    return this.dropped;
  }

  /** Ends every socket of a session that ended (logout, expiry, deleted passkey) at once. */
  closeSession(sessionKey: string): void {
    for (const set of this.clientsByPath.values()) {
      for (const c of set) if (c.caller.sessionKey === sessionKey) this.close(c.ws, WS_CLOSE.UNAUTHORIZED, 'session ended');
    }
  }

  closeAll(code: number = WS_CLOSE.GOING_AWAY, reason = 'server shutting down'): void {
    this.closing = true;
    clearInterval(this.pingTimer);
    // An upgrade socket holds the listener's close and no connection cut reaches it: one held
    // back for a guesser (up to 8 s) is answered now, with the 1001 every late socket gets.
    for (const complete of [...this.heldBack]) complete();
    // A request answered over HTTP/1.1 despite its Upgrade gets the drain every request gets.
    for (const socket of this.answering) (this.options.schedule ?? realSchedule)(() => socket.destroy(), DRAIN_MS);
    for (const set of this.clientsByPath.values()) for (const c of set) this.close(c.ws, code, reason);
  }

  /**
   * Every close the hub makes. ws waits 30 s for a client to answer a close: a client gone from the
   * Wi-Fi, or one that never answers on purpose, held its socket that long, and the listener's
   * close, which waits for every socket, held the whole shutdown with it. Such a socket gets what
   * an HTTP request gets at shutdown (listeners.ts, DRAIN_MS), then it is cut.
   */
  private close(ws: WebSocket, code: number, reason: string): void {
    ws.close(code, reason);
    if (ws.readyState === WebSocket.CLOSED) return;
    const cancel = (this.options.schedule ?? realSchedule)(() => ws.terminate(), DRAIN_MS);
    ws.once('close', cancel);
  }

  /**
   * Everything a stranger's upgrade can carry is parsed before the handshake; a malformed request
   * is answered 400 and never becomes a socket. Nothing thrown here may leave: one client's bytes
   * can only ever end that client's connection.
   */
  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A reset during the handshake must not become an unhandled 'error' event.
    socket.on('error', (err) => this.options.log.debug('upgrade socket error', { error: err.message }));
    try {
      const request = readRequest(req);
      if (!request.ok) return refuseUpgrade(socket, request.reason);
      const handshake = checkUpgradeHeaders(req);
      if (!handshake.ok) return refuseUpgrade(socket, handshake.reason);
      const cookie = readSessionCookie(req.headers.cookie);
      if (!cookie.ok) return refuseUpgrade(socket, cookie.reason);
      const { pathname, query } = request.value;
      const route = this.sockets?.routes.find((r) => r.method === 'WS' && r.path === pathname);
      const caller = route
        ? resolveCaller(
            { req, queryToken: route.queryToken === true ? (query.get('token') ?? undefined) : undefined, cookie: cookie.value },
            this.options.credentials,
          )
        : undefined;
      const delay = caller ? this.throttle(req, caller) : 0;
      const complete = () => this.handshake(req, socket, head, route, caller, query);
      if (delay > 0) this.holdBack(complete, delay);
      else complete();
    } catch (err) {
      this.options.log.warn('upgrade failed', { error: String((err as Error)?.stack ?? err) });
      socket.destroy();
    }
  }

  /** Completes an upgrade after the throttle's delay, or at closeAll if that comes first. */
  private holdBack(complete: () => void, delay: number): void {
    const run = () => {
      clearTimeout(timer);
      this.heldBack.delete(run);
      complete();
    };
    const timer = setTimeout(run, delay);
    timer.unref();
    this.heldBack.add(run);
  }

  /** Wrong credentials on a socket slow the guesser down exactly as on HTTP (access-gate.ts). */
  private throttle(req: IncomingMessage, caller: Caller): number {
    const failures = this.options.failures;
    if (!failures) return 0;
    const key = req.socket.remoteAddress ?? 'unknown';
    if (caller.failed && !caller.local) {
      const delay = failures.delayFor(key);
      failures.recordFailure(key);
      return delay;
    }
    if (hasKey(caller)) failures.recordSuccess(key);
    return 0;
  }

  private handshake(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    route: RouteSpec | undefined,
    caller: Caller | undefined,
    query: URLSearchParams,
  ): void {
    if (socket.destroyed) return;
    try {
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        // First, before any check can close it: a client's invalid frames arrive as 'error'
        // events (ws closes the socket itself), and an unheard 'error' would end the process.
        ws.on('error', (err) => this.options.log.debug('socket error', { path: route?.path, error: err.message }));
        this.guard(ws, 'connection', () => {
          // A keep-alive connection can still ask for an upgrade while the listeners drain: a
          // socket admitted then was never closed and held the listener's close, and the stop.
          if (this.closing) return this.close(ws, WS_CLOSE.GOING_AWAY, 'server shutting down');
          if (this.options.hosts && !this.options.hosts.allows(req.headers.host))
            return this.close(ws, WS_CLOSE.FORBIDDEN, 'unknown host');
          if (!route || !caller) return this.close(ws, WS_CLOSE.NOT_FOUND, 'no such socket');
          if (this.foreignPage(req, caller)) return this.close(ws, WS_CLOSE.FORBIDDEN, 'cross-origin socket refused');
          if (!isAllowed(route, caller, this.options.loopbackReads))
            return this.close(ws, WS_CLOSE.UNAUTHORIZED, 'unauthorized');
          this.admit(ws, caller, route.path, query);
        });
      });
    } catch (err) {
      this.options.log.warn('upgrade failed', { error: String((err as Error)?.stack ?? err) });
      socket.destroy();
    }
  }

  /**
   * A socket opened by another site's page on the caller's ambient credential: the cookie, or the
   * loopback trust of a browser on this machine. Sockets are not bound by CORS, so without this any
   * page the owner visits could open /ws in the background, watch the state and camera frames, and
   * with a session cookie drive the head, where the same page's control POSTs are refused 403. A
   * browser names the page in the Origin of every socket handshake; one without it comes from no
   * page (a persona or script on the robot reading /ws) and is let through. A token in the URL is
   * no ambient credential: a page that holds it may use it from anywhere.
   */
  private foreignPage(req: IncomingMessage, caller: Caller): boolean {
    if (caller.viaBearer) return false;
    return fromForeignPage({
      origin: req.headers.origin,
      host: req.headers.host,
      secure: (req.socket as { encrypted?: boolean }).encrypted === true,
      allowedOrigins: this.options.allowedOrigins ?? [],
    });
  }

  /** Runs one socket's handler; anything it throws closes that socket alone (1011) with a log line. */
  private guard(ws: WebSocket, scope: string, run: () => void): void {
    try {
      run();
    } catch (err) {
      this.options.log.warn('socket handler failed', { during: scope, error: String((err as Error)?.stack ?? err) });
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        this.close(ws, WS_CLOSE.INTERNAL, 'internal error');
    }
  }

  private admit(ws: WebSocket, caller: Caller, path: string, query: URLSearchParams): void {
    const client: WsClient = {
      ws,
      caller,
      path,
      query,
      send: (frame) => this.sendTo(ws, frame),
      onMessage: (listener) => {
        ws.on('message', (data, isBinary) => {
          // Once the hub has closed a socket (session ended or expired, a handler failed), ws still
          // delivers what the client sends until it answers the close or is cut (`close`): a client
          // that held its answer back kept driving the head with the credential taken from it.
          if (ws.readyState !== WebSocket.OPEN) return;
          this.guard(ws, `message ${path}`, () => listener(data, isBinary));
        });
      },
    };
    const set = this.clientsByPath.get(path) ?? new Set();
    this.clientsByPath.set(path, set);
    set.add(client);
    this.countChanged(path, set.size);
    this.alive.set(ws, true);
    ws.on('pong', () => this.alive.set(ws, true));
    // Credentials are checked again when a passkey session or a service token runs out. The
    // clock's timer, not a bare setTimeout: a token months away would overflow Node's timer,
    // which then fires at once and closed a new socket of a 30-day persona token straight away.
    const cancelExpiry = caller.expiresAt
      ? realSchedule(() => this.close(ws, WS_CLOSE.UNAUTHORIZED, 'session expired'), caller.expiresAt - Date.now())
      : undefined;
    ws.on('close', () => {
      cancelExpiry?.();
      set.delete(client);
      this.countChanged(path, set.size);
    });
    const handler = this.sockets?.handlers[path];
    if (handler) this.guard(ws, `connection ${path}`, () => handler(client));
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

/** An HTTP answer on the raw socket, before any handshake: the client learns why, then the line closes. */
function refuseUpgrade(socket: Duplex, reason: string): void {
  const body = JSON.stringify({ error: reason, code: 'BAD_REQUEST' });
  // Node stops reading an upgraded socket, so its end never comes: destroy once the answer is out.
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
