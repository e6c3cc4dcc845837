import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { HttpTransport } from './http-transport.ts';

interface Seen {
  connection: number;
  method: string;
  path: string;
}

/**
 * A daemon stand-in that logs every request with the connection it came on; `handle` answers it
 * or resets the socket under it, as uvicorn's closed sockets do.
 */
async function daemon(handle: (req: IncomingMessage, res: ServerResponse, nth: number) => void) {
  const seen: Seen[] = [];
  const connections = new Map<Socket, number>();
  const perConnection = new Map<Socket, number>();
  const server: Server = createServer((req, res) => {
    const socket = req.socket;
    if (!connections.has(socket)) connections.set(socket, connections.size + 1);
    const nth = (perConnection.get(socket) ?? 0) + 1;
    perConnection.set(socket, nth);
    req.resume();
    req.on('end', () => {
      seen.push({ connection: connections.get(socket) as number, method: req.method ?? '', path: req.url ?? '' });
      handle(req, res, nth);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const answer = (res: ServerResponse, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: status < 400 }));
};

describe('the daemon transport when the daemon closes a socket under a request', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  it('tries the request once more on another socket, so the caller sees the answer', async () => {
    // The second request on any connection meets a reset, as after a 500 whose socket uvicorn closed.
    const d = await daemon((req, res, nth) => (nth === 2 ? req.socket.resetAndDestroy() : answer(res)));
    const transport = new HttpTransport({ baseUrl: d.url, connections: 1 });
    open.push(d, transport);

    expect(await transport.request({ path: '/api/state/full' })).toEqual({ status: 200, body: { ok: true } });
    const enable = await transport.request({ method: 'POST', path: '/api/media/tracking/enable', body: { weight: 1 } });

    expect(enable).toEqual({ status: 200, body: { ok: true } });
    expect(d.seen).toEqual([
      { connection: 1, method: 'GET', path: '/api/state/full' },
      { connection: 1, method: 'POST', path: '/api/media/tracking/enable' },
      { connection: 2, method: 'POST', path: '/api/media/tracking/enable' },
    ]);
  });

  it('tries only once more: a daemon that resets every request is unreachable after two', async () => {
    const d = await daemon((req) => req.socket.resetAndDestroy());
    const transport = new HttpTransport({ baseUrl: d.url, connections: 1 });
    open.push(d, transport);

    const failed = await transport.request({ method: 'POST', path: '/api/move/stop' }).catch((err: unknown) => err);

    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({ code: 'DAEMON_UNREACHABLE' });
    expect(d.seen.map((s) => s.path)).toEqual(['/api/move/stop', '/api/move/stop']);
  });

  it('never repeats a request whose answer had begun, even if the socket is lost during it', async () => {
    const d = await daemon((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"ok":');
      // The daemon acted on the request and died answering it: its end of the socket closes after
      // what it wrote (a FIN, ordered after the data, so the answer has begun when it arrives).
      req.socket.end();
    });
    const transport = new HttpTransport({ baseUrl: d.url, connections: 1 });
    open.push(d, transport);

    const failed = await transport.request({ method: 'POST', path: '/api/move/goto' }).catch((err: unknown) => err);

    expect(failed).toMatchObject({ code: 'DAEMON_UNREACHABLE' });
    expect(d.seen).toHaveLength(1);
  });

  it('never repeats a request the daemon answered, even with a 500', async () => {
    const d = await daemon((_req, res) => answer(res, 500));
    const transport = new HttpTransport({ baseUrl: d.url, connections: 1 });
    open.push(d, transport);

    expect(await transport.request({ method: 'POST', path: '/api/volume/set', body: { volume: 40 } })).toEqual({
      status: 500,
      body: { ok: false },
    });
    expect(d.seen).toHaveLength(1);
  });
});

/** Answers 200 and then a JSON body that never ends, a little at a time: never silent long enough for bodyTimeout. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"ok":');
  const drip = setInterval(() => res.write(' '), 20);
  res.on('close', () => clearInterval(drip));
}

describe('the daemon transport when the daemon trickles its answer', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  it('fails the request as a timeout at its deadline, the body included, whatever the collector does', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const d = await daemon((_req, res) => {
      trickle(res);
      gc();
    });
    const transport = new HttpTransport({ baseUrl: d.url, timeoutMs: 200 });
    open.push(d, transport);

    const failed = await transport.request({ path: '/api/state/full' }).catch((err: unknown) => err);

    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({
      code: 'DAEMON_TIMEOUT',
      message: 'daemon did not answer GET /api/state/full within 200 ms',
    });
  });

  it('runs the deadline on a timer of its own, cleared once the answer is read', async () => {
    const clock = createManualClock();
    const d = await daemon((req, res) => {
      if (req.url !== '/api/state/full') return answer(res);
      trickle(res);
      clock.advance(60_000);
    });
    const transport = new HttpTransport({ baseUrl: d.url, timeoutMs: 60_000, schedule: clock.schedule });
    open.push(d, transport);

    expect(await transport.request({ method: 'POST', path: '/api/volume/set', body: { volume: 40 } })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(clock.pending()).toBe(0);
    const failed = await transport.request({ path: '/api/state/full' }).catch((err: unknown) => err);

    expect(failed).toMatchObject({ code: 'DAEMON_TIMEOUT' });
    expect(clock.pending()).toBe(0);
  });

  it('says a write that timed out may still be carried out, as a stalled daemon does', async () => {
    const clock = createManualClock();
    const d = await daemon((_req, res) => {
      trickle(res);
      clock.advance(2000);
    });
    const transport = new HttpTransport({ baseUrl: d.url, timeoutMs: 2000, schedule: clock.schedule });
    open.push(d, transport);
    const body = { head_pose: { yaw: 0.5 }, duration: 1 };
    const failed = await transport
      .request({ method: 'POST', path: '/api/move/goto', body })
      .catch((err: unknown) => err);
    expect(failed).toMatchObject({
      code: 'DAEMON_TIMEOUT',
      message: 'daemon did not answer POST /api/move/goto within 2000 ms; it may still carry it out when it does',
    });
  });
});

describe('the daemon transport when the daemon answers without end', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  it('stops reading past 16 MiB and says so, without trying again', async () => {
    // Twice the limit of one JSON list, then its end: a transport without the bound reads it all.
    const d = await daemon((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/api/daemon/status') return res.end('{"state":"running"}');
      res.write('[');
      const piece = `${'"x",'.repeat(16 * 1024)}`;
      for (let sent = 0; sent < 32 * 1024 * 1024; sent += piece.length) res.write(piece);
      res.end('"x"]');
    });
    const transport = new HttpTransport({ baseUrl: d.url, timeoutMs: 60_000 });
    open.push(d, transport);
    await expect(transport.request({ path: '/api/apps/list-available' })).rejects.toMatchObject({
      code: 'DAEMON_ERROR',
      message: 'daemon answered GET /api/apps/list-available with more than 16 MiB',
    });
    expect(d.seen).toHaveLength(1);
    // The cut socket is not reused: the next request is answered on another.
    expect(await transport.request({ path: '/api/daemon/status' })).toEqual({
      status: 200,
      body: { state: 'running' },
    });
  });
});
