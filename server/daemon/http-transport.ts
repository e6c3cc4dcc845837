/**
 * HTTP to the daemon through ONE keep-alive pool. The rules come from docs/daemon.md, "Duties of the cockpit":
 * few sockets, an idle timeout under uvicorn's 5 s (else sockets rot in CLOSE-WAIT), every
 * body consumed, a timeout on every request, and at most one request in flight per endpoint.
 */
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { realSchedule, type Schedule } from '../clock.ts';
import { withDeadline } from '../deadline.ts';
import { AppError } from '../errors.ts';
import { markDaemonAnswer, markDaemonSend } from './send-marks.ts';

export interface TransportOptions {
  baseUrl: string;
  /** Default per-request timeout; state reads use this, slow daemon calls pass their own. */
  timeoutMs?: number;
  connections?: number;
  /** The timer of each request's deadline (server/deadline.ts); tests pass a manual clock's. */
  schedule?: Schedule;
}

export interface DaemonRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** Raw body (multipart uploads); sent as-is with the given content type. */
  raw?: { data: Buffer; contentType: string };
  timeoutMs?: number;
}

export interface DaemonResponse {
  status: number;
  /** Parsed JSON when the daemon sent JSON, else the text. */
  body: unknown;
}

/**
 * How long an idle socket stays in the pool. uvicorn closes its end after 5 s idle; a request
 * written on a socket the daemon is closing fails as "other side closed" (DAEMON_UNREACHABLE)
 * although the daemon is fine. undici's idle timers tick coarsely (about a second) and a busy
 * machine runs them late, so 4 s came too close to 5: on a loaded machine a tracking enable sent
 * on a 5 s-old socket failed that way. 1 s leaves four seconds of margin; a new loopback
 * connection costs far less than the failed control.
 */
const IDLE_SOCKET_MS = 1000;

/**
 * The longest answer read from the daemon. Its largest ones are lists (apps, moves, datasets) of
 * some kilobytes; a daemon gone wrong must not fill the cockpit's memory with one answer.
 */
export const DAEMON_ANSWER_LIMIT = 16 * 1024 * 1024;

/** Waiting callers per endpoint beyond which the daemon is treated as stalled. */
const MAX_QUEUED_PER_ENDPOINT = 8;

export class HttpTransport {
  readonly baseUrl: string;
  private readonly pool: Pool;
  private readonly timeoutMs: number;
  private readonly schedule: Schedule;
  private readonly inflightReads = new Map<string, Promise<DaemonResponse>>();
  private readonly writeChains = new Map<string, { tail: Promise<unknown>; waiting: number }>();
  private closed = false;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.schedule = options.schedule ?? realSchedule;
    this.pool = new Pool(options.baseUrl, {
      connections: options.connections ?? 4,
      keepAliveTimeout: IDLE_SOCKET_MS,
      keepAliveMaxTimeout: IDLE_SOCKET_MS,
      connect: { timeout: 2000 },
      maxResponseSize: DAEMON_ANSWER_LIMIT,
    });
  }

  /**
   * One request. Identical GETs in flight share one upstream call; writes to the same
   * endpoint are chained so the daemon never sees two at once from us.
   */
  request(req: DaemonRequest): Promise<DaemonResponse> {
    if (this.closed) return Promise.reject(new AppError('DAEMON_UNREACHABLE', 'daemon client closed'));
    const method = req.method ?? 'GET';
    if (method === 'GET') return this.coalescedRead(req);
    return this.chainedWrite(req, `${method} ${req.path.split('?')[0]}`);
  }

  private coalescedRead(req: DaemonRequest): Promise<DaemonResponse> {
    const key = req.path;
    const pending = this.inflightReads.get(key);
    if (pending) return pending;
    const started = this.send(req).finally(() => this.inflightReads.delete(key));
    this.inflightReads.set(key, started);
    return started;
  }

  private chainedWrite(req: DaemonRequest, key: string): Promise<DaemonResponse> {
    const chain = this.writeChains.get(key) ?? { tail: Promise.resolve(), waiting: 0 };
    if (chain.waiting >= MAX_QUEUED_PER_ENDPOINT) {
      return Promise.reject(new AppError('DAEMON_TIMEOUT', `daemon is not keeping up with ${key}`));
    }
    chain.waiting += 1;
    const run = chain.tail.then(() => this.send(req));
    chain.tail = run
      .catch(() => undefined)
      .finally(() => {
        chain.waiting -= 1;
        if (chain.waiting === 0) this.writeChains.delete(key);
      });
    this.writeChains.set(key, chain);
    return run;
  }

  private async send(req: DaemonRequest): Promise<DaemonResponse> {
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const headers: Record<string, string> = {};
    let body: string | Buffer | undefined;
    if (req.raw) {
      headers['content-type'] = req.raw.contentType;
      body = req.raw.data;
    } else if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    // headersTimeout and bodyTimeout measure silence only, so a trickled body never trips them; the
    // deadline bounds the whole request, a second try and the body included (server/deadline.ts).
    const options: Dispatcher.RequestOptions = {
      path: req.path,
      method: req.method ?? 'GET',
      headers,
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    };
    try {
      return await withDeadline(timeoutMs, (signal) => this.tryTwice({ ...options, signal }, req, timeoutMs), {
        schedule: this.schedule,
      });
    } catch (err) {
      throw transportError(err, req, timeoutMs);
    }
  }

  private async tryTwice(
    options: Dispatcher.RequestOptions & { signal: AbortSignal },
    req: DaemonRequest,
    timeoutMs: number,
  ): Promise<DaemonResponse> {
    try {
      return await this.attempt(options, req, timeoutMs);
    } catch (err) {
      if (!closedUnderTheRequest(err) || options.signal.aborted) throw transportError(err, req, timeoutMs);
      try {
        return await this.attempt(options, req, timeoutMs);
      } catch (again) {
        throw transportError(again, req, timeoutMs);
      }
    }
  }

  private async attempt(
    options: Dispatcher.RequestOptions,
    req: DaemonRequest,
    timeoutMs: number,
  ): Promise<DaemonResponse> {
    markDaemonSend();
    const res = await this.pool.request(options);
    markDaemonAnswer();
    // Always read the body to the end: an unread body pins the socket (docs/daemon.md, "Duties of the cockpit").
    // The daemon has answered, so a socket lost during the body is not a reason to send it again.
    const text = await res.body.text().catch((err: unknown) => {
      throw transportError(err, req, timeoutMs);
    });
    const isJson = String(res.headers['content-type'] ?? '').includes('json');
    return { status: res.statusCode, body: isJson && text ? safeParse(text) : text };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.destroy().catch(() => undefined);
  }
}

/**
 * The daemon closed the socket before its answer began: reset, or closed at our end of a
 * kept-alive socket. uvicorn closes a connection without saying so in its answer when the app raised after
 * its 500 was sent (the daemon's own error middleware sends it): the socket returns to the pool
 * looking reusable, and the next request written on it meets the reset, although the daemon is
 * fine. Such a request never reached the daemon's app (uvicorn closes only between requests, on
 * shutdown, or when the process dies), so it is tried once more, on another socket.
 */
function closedUnderTheRequest(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Raw fetch errors never travel upward: they become DAEMON_* app errors here. */
export function transportError(err: unknown, req: DaemonRequest, timeoutMs: number): AppError {
  if (err instanceof AppError) return err;
  const e = err as { name?: string; code?: string; cause?: { code?: string } };
  const what = `${req.method ?? 'GET'} ${req.path.split('?')[0]}`;
  if (err instanceof undiciErrors.ResponseExceededMaxSizeError) {
    return new AppError('DAEMON_ERROR', `daemon answered ${what} with more than ${DAEMON_ANSWER_LIMIT >> 20} MiB`);
  }
  if (
    e.name === 'TimeoutError' ||
    e.name === 'AbortError' ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError
  ) {
    // A stalled daemon still holds a write it took, and carries it out when it runs again: a move
    // then starts late (the latched stop cancels such a latecomer, server/motion/arbiter.ts).
    const late = (req.method ?? 'GET') === 'GET' ? '' : '; it may still carry it out when it does';
    return new AppError('DAEMON_TIMEOUT', `daemon did not answer ${what} within ${timeoutMs} ms${late}`);
  }
  const code = e.code ?? e.cause?.code ?? 'unknown';
  return new AppError('DAEMON_UNREACHABLE', `daemon unreachable (${code}) on ${what}`);
}
