import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { CADENCE } from './limits.ts';
import { createPlatformHttp, httpFailure } from './platform-http.ts';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Answers 200 and then a JSON body that never ends: whitespace inside an object, a little at a time. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"ok":');
  const drip = setInterval(() => res.write(' '), 20);
  res.on('close', () => clearInterval(drip));
}

/** Node's collector, reachable without --expose-gc on the command line. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('createPlatformHttp', () => {
  it('bounds every request: 15 s by default, a timeout failure when it runs out', async () => {
    expect(CADENCE.requestTimeoutMs).toBe(15_000);
    const url = await serve(() => undefined);
    const http = createPlatformHttp({ baseUrl: () => url, timeoutMs: 50 });
    expect(await http.send({ method: 'POST', path: '/api/devices/heartbeat', body: {} })).toEqual({
      ok: false,
      failure: { kind: 'timeout', message: 'platform did not answer within 0.05 s', retryable: true },
    });
  });

  it('bounds the body too: a 200 that trickles its body forever fails as a timeout', async () => {
    const url = await serve((_req, res) => trickle(res));
    const http = createPlatformHttp({ baseUrl: () => url, timeoutMs: 200 });
    expect(await http.send({ method: 'POST', path: '/api/devices/heartbeat', body: {} })).toEqual({
      ok: false,
      failure: { kind: 'timeout', message: 'platform did not answer within 0.2 s', retryable: true },
    });
    expect(await http.getBytes(`${url}/firmware/manifest.json`, 1024)).toMatchObject({
      ok: false,
      failure: { kind: 'timeout' },
    });
  });

  it('keeps its bound when garbage is collected during the body', async () => {
    const gc = collector();
    const url = await serve((_req, res) => trickle(res));
    const fetchThenCollect = async (input: string, init?: RequestInit) => {
      const response = await fetch(input, init);
      gc();
      return response;
    };
    const http = createPlatformHttp({ baseUrl: () => url, timeoutMs: 200, fetch: fetchThenCollect });
    expect(await http.send({ method: 'POST', path: '/api/devices/heartbeat', body: {} })).toMatchObject({
      ok: false,
      failure: { kind: 'timeout' },
    });
  });

  it('runs each bound on a timer of its own, which ends the body read and is cleared once the answer is in', async () => {
    const url = await serve((req, res) => (req.url === '/trickle' ? trickle(res) : res.end('{"ok":true}')));
    const timers: Array<{ ms: number; expire: () => void; cleared: boolean }> = [];
    const http = createPlatformHttp({
      baseUrl: () => url,
      timeoutMs: 60_000,
      deadlineTimer(ms, expire) {
        const timer = { ms, expire, cleared: false };
        timers.push(timer);
        return () => void (timer.cleared = true);
      },
      // The deadline falls as soon as the headers are in: what it has to end is the body read.
      async fetch(input, init) {
        const response = await fetch(input, init);
        if (input.endsWith('/trickle')) timers.at(-1)?.expire();
        return response;
      },
    });
    expect(await http.send({ method: 'GET', path: '/trickle' })).toEqual({
      ok: false,
      failure: { kind: 'timeout', message: 'platform did not answer within 60 s', retryable: true },
    });
    expect(await http.send({ method: 'GET', path: '/' })).toMatchObject({ ok: true, value: { body: { ok: true } } });
    expect(timers.map(({ ms, cleared }) => ({ ms, cleared }))).toEqual([
      { ms: 60_000, cleared: true },
      { ms: 60_000, cleared: true },
    ]);
  });

  it('sends JSON with a bearer only when given, and refuses to follow redirects', async () => {
    const seen: Array<{ auth?: string; type?: string; body: string }> = [];
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, type: req.headers['content-type'], body });
        if (req.url === '/moved') res.writeHead(307, { location: '/elsewhere' }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    const http = createPlatformHttp({ baseUrl: () => url });
    expect(await http.send({ method: 'GET', path: '/api/devices', bearer: 'cli' })).toMatchObject({
      ok: true,
      value: { status: 200, body: { ok: true } },
    });
    await http.send({ method: 'POST', path: '/x', body: { a: 1 } });
    expect(seen).toEqual([
      { auth: 'Bearer cli', type: undefined, body: '' },
      { auth: undefined, type: 'application/json', body: '{"a":1}' },
    ]);
    expect(await http.send({ method: 'POST', path: '/moved', body: {} })).toMatchObject({
      ok: false,
      failure: { kind: 'transport' },
    });
  });

  it('reports a non-JSON 200 as bad_response and a refused connection as transport', async () => {
    const url = await serve((_req, res) => res.end('<html>'));
    expect(await createPlatformHttp({ baseUrl: () => url }).send({ method: 'GET', path: '/' })).toMatchObject({
      ok: false,
      failure: { kind: 'bad_response' },
    });
    const dead = createPlatformHttp({ baseUrl: () => 'http://127.0.0.1:1' });
    expect(await dead.send({ method: 'GET', path: '/' })).toMatchObject({
      ok: false,
      failure: { kind: 'transport', retryable: true, message: expect.stringMatching(/^platform unreachable/) },
    });
  });
});

describe('httpFailure recognises the exact worker strings', () => {
  it.each([
    [401, { error: 'unauthorized' }, 'unauthorized', false],
    [401, { error: 'unknown device' }, 'unauthorized', false],
    [404, { error: 'unknown device' }, 'unauthorized', false],
    [400, { error: 'payload must be valid JSON ≤8KB' }, 'too_large', false],
    [404, { error: 'device not found' }, 'not_found', false],
    [400, { error: 'userId and toDevice required' }, 'bad_request', false],
    [424, { error: 'registry unreachable' }, 'unavailable', true],
    [400, { error: 'registry unreachable' }, 'unavailable', true],
    [503, { error: 'unavailable', retryable: true }, 'unavailable', true],
    [409, { error: 'downgrade refused' }, 'conflict', false],
  ] as const)('%i %j is %s', (status, body, kind, retryable) => {
    expect(httpFailure(status, body)).toMatchObject({ kind, retryable, status, workerError: body.error });
  });

  it('repeats at most 200 characters of an error string in the message', () => {
    const failure = httpFailure(400, { error: 'x'.repeat(20_000) });
    expect(failure).toMatchObject({ kind: 'bad_request', message: `platform answered 400: ${'x'.repeat(200)}…` });
  });
});
