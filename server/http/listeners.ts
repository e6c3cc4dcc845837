/** Listening and graceful closing of HTTP(S) servers, shared by both cockpit servers. */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Log } from '../log.ts';

/**
 * In-flight requests get this long to finish on shutdown before their sockets are cut; WebSocket
 * clients get as long to answer any close the hub sends (ws-hub.ts, `close`).
 */
export const DRAIN_MS = 3000;

/**
 * Every listener of both servers is created with these. A client that trickles its headers or
 * body is cut (408) instead of holding a socket forever, and the check runs every second rather
 * than Node's default 30 s, so a crowd of half-sent requests is cleared quickly. None of it slows
 * anyone else: an idle half-open socket costs the event loop nothing (bench/RESULTS.md, "Slow
 * clients").
 */
export const SERVER_OPTIONS = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 60_000,
  connectionsCheckingInterval: 1000,
  // Node would answer a missing Host with an empty 400; the cockpit's own check says why in JSON.
  requireHostHeader: false,
});

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

export function closeServer(server: Server, drainMs = DRAIN_MS): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const force = setTimeout(() => server.closeAllConnections(), drainMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

const CLIENT_ERRORS: Record<string, { status: number; text: string; error: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: 'Request Timeout', error: 'request not received in time' },
  HPE_HEADER_OVERFLOW: { status: 431, text: 'Request Header Fields Too Large', error: 'request headers too large' },
};

/**
 * Bytes Node's HTTP parser refuses never reach Koa. Node would answer a bare 400; this answers
 * with the same JSON error body as every other refusal, then closes that one connection.
 */
export function answerClientErrors(server: Server, log: Log): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    log.debug('malformed request', { code: err.code, error: err.message });
    if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
    const known = CLIENT_ERRORS[err.code ?? ''] ?? { status: 400, text: 'Bad Request', error: 'malformed HTTP request' };
    const body = JSON.stringify({ error: known.error, code: known.status === 408 ? 'TIMEOUT' : 'BAD_REQUEST' });
    socket.end(
      `HTTP/1.1 ${known.status} ${known.text}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}
