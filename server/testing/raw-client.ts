/**
 * Sends raw bytes to a server over TCP or TLS and collects whatever comes back until the server
 * closes the connection. The client half-closes after writing, so every well-behaved server path
 * ends the exchange by itself: no timer decides when a case is over. The bound only turns a server
 * that never closes into a named finding instead of a stuck test.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface RawTarget {
  port: number;
  tls: boolean;
}

export interface RawExchange {
  /** Everything the server sent, in order. */
  response: Buffer;
  /** The server never closed within the bound. */
  hung: boolean;
  /** The connection itself failed (refused, reset before any byte): the server may be down. */
  error: string | undefined;
}

/** A server that still holds the line after this long has a bug worth naming. */
const HANG_BOUND_MS = 20_000;

export function exchange(target: RawTarget, chunks: readonly Buffer[], localAddress: string): Promise<RawExchange> {
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let error: string | undefined;
    const tcp = tcpConnect({ host: '127.0.0.1', port: target.port, localAddress });
    // TLS rides on a TCP socket bound to the chosen source address.
    const socket: Socket = target.tls ? tlsConnect({ socket: tcp, rejectUnauthorized: false, servername: 'localhost' }) : tcp;
    if (target.tls) tcp.on('error', () => undefined);
    const bound = setTimeout(() => finish(true), HANG_BOUND_MS);
    let done = false;
    function finish(hung: boolean): void {
      if (done) return;
      done = true;
      clearTimeout(bound);
      socket.destroy();
      resolve({ response: Buffer.concat(received), hung, error });
    }
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // A reset after the server answered is how many refusals end; only a silent failure counts.
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (received.length === 0 && err.code !== 'ECONNRESET' && err.code !== 'EPIPE') error = err.message;
    });
    socket.on('close', () => finish(false));
    socket.once(target.tls ? 'secureConnect' : 'connect', () => {
      for (const chunk of chunks) if (!socket.destroyed) socket.write(chunk);
      if (!socket.destroyed) socket.end();
    });
  });
}

/** The status code of the first HTTP response in the bytes, or undefined when there is none. */
export function statusOf(response: Buffer): number | undefined {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(response.subarray(0, 20).toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

/** Headers and body of the first HTTP response (non-chunked bodies only; enough for error bodies). */
export function firstResponse(response: Buffer): { head: string; body: string } {
  const text = response.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return { head: text, body: '' };
  const head = text.slice(0, split);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const rest = text.slice(split + 4);
  return { head, body: length ? rest.slice(0, Number(length[1])) : rest };
}

/**
 * A fresh loopback source address per case: the brute-force throttle and the rate limit key
 * clients by address, so each case starts clean, as a crowd of different attackers would.
 */
export function sourceAddress(index: number): string {
  const n = index + 1;
  // Never 127.0.0.x: 127.0.0.1 is the one peer the loopback rule trusts.
  return `127.${1 + ((n >> 16) & 0x7f)}.${(n >> 8) & 0xff}.${(n & 0xff) || 1}`;
}

export const LOOPBACK_PEER = '127.0.0.1';
