/**
 * Answers longer than the client reads (limits.ts READ): whatever answers at the platform's
 * address may send any length within a request's 15 s, and the client must not hold it all.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBytesUpTo } from './body-read.ts';
import { READ } from './limits.ts';
import { createPlatformHttp } from './platform-http.ts';
import { createChatStream } from './chat-stream.ts';
import { createDeviceAsk } from './device-ask.ts';
import { downloadToFile } from './firmware/download.ts';
import { createManualScheduler } from './test/manual-scheduler.ts';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function serve(handler: (res: ServerResponse) => void): Promise<string> {
  server = createServer((_req, res) => handler(res));
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A valid JSON object of `bytes` bytes, sent in pieces without a length (chunked). */
function paddedObject(res: ServerResponse, status: number, bytes: number): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.write('{"error":"unauthorized","pad":"');
  const piece = 'x'.repeat(64 * 1024);
  for (let sent = 0; sent < bytes; sent += piece.length) res.write(piece);
  res.end('"}');
}

describe('answers past the ceiling', () => {
  it('a 2xx JSON answer over 4 MiB is a bad response, not read whole', async () => {
    const url = await serve((res) => paddedObject(res, 200, 2 * READ.answerBytes));
    const http = createPlatformHttp({ baseUrl: () => url });
    expect(await http.send({ method: 'POST', path: '/api/devices/heartbeat', body: {} })).toEqual({
      ok: false,
      failure: {
        kind: 'bad_response',
        status: 200,
        message: 'platform answered with a body over 4 MiB',
        retryable: true,
      },
    });
  });

  it('a declared length over the ceiling is refused before the body is read', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(READ.answerBytes + 1) });
      res.write('{');
      // The rest never comes: only the declared length can end this read.
    });
    const http = createPlatformHttp({ baseUrl: () => url, timeoutMs: 60_000 });
    expect(await http.send({ method: 'GET', path: '/api/devices' })).toMatchObject({
      ok: false,
      failure: { kind: 'bad_response', message: 'platform answered with a body over 4 MiB' },
    });
  });

  it('an error answer over the ceiling keeps its status, without the body it could not read', async () => {
    const url = await serve((res) => paddedObject(res, 401, 2 * READ.answerBytes));
    const http = createPlatformHttp({ baseUrl: () => url });
    expect(await http.send({ method: 'PUT', path: '/api/devices/relay', body: {} })).toEqual({
      ok: false,
      failure: { kind: 'unauthorized', status: 401, message: 'platform answered 401', retryable: false },
    });
  });

  it('a file over its ceiling is refused', async () => {
    const url = await serve((res) => paddedObject(res, 200, READ.manifestBytes));
    const http = createPlatformHttp({ baseUrl: () => url });
    expect(await http.getBytes(`${url}/manifest.json`, READ.manifestBytes)).toEqual({
      ok: false,
      failure: { kind: 'bad_response', status: 200, message: 'the file is over 1 MiB', retryable: false },
    });
  });

  it('a body of exactly the ceiling is read whole', async () => {
    const body = new Uint8Array(1000).fill(7);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < body.length; i += 300) controller.enqueue(body.slice(i, i + 300));
        controller.close();
      },
    });
    expect(await readBytesUpTo(new Response(chunks), 1000)).toEqual(body);
    expect(await readBytesUpTo(new Response(body), 999)).toBeNull();
  });
});

/**
 * An answer of `bytes` bytes produced only as it is read, 64 KiB at a time, and how much of it
 * was read: a reader that stops at the ceiling leaves the rest unmade.
 */
function lazyAnswer(status: number, contentType: string, bytes: number) {
  const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
  let made = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (made >= bytes) return controller.close();
        made += piece.byteLength;
        controller.enqueue(made === piece.byteLength ? new TextEncoder().encode('{"error":"') : piece);
      },
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { status, headers: { 'content-type': contentType } }), made: () => made };
}

describe('stream answers that are not streams', () => {
  const identity = { platformUrl: 'https://platform.example', deviceId: 'dev-1', token: 'tind_secret_token' };
  const most = READ.answerBytes + 2 * 64 * 1024;

  it('the chat reads at most 4 MiB of an error answer', async () => {
    const answer = lazyAnswer(500, 'application/json', 4 * READ.answerBytes);
    const chat = createChatStream({
      identity: () => identity,
      ownerToken: () => 'owner-session-token',
      http: createPlatformHttp({ baseUrl: () => identity.platformUrl }),
      upload: () => Promise.reject(new Error('no upload here')),
      scheduler: createManualScheduler(),
      fetch: () => Promise.resolve(answer.response),
    });
    const events = [];
    const input = { messages: [], tools: [], runTool: () => Promise.reject(new Error('no tools')) };
    for await (const event of chat.chat({ ...input, signal: new AbortController().signal })) events.push(event);
    expect(events).toEqual([{ type: 'error', error: 'platform answered 500' }]);
    expect(answer.made()).toBeLessThanOrEqual(most);
  });

  it('the ask reads at most 4 MiB of an error answer, and of a JSON answer in place of its stream', async () => {
    for (const [status, type] of [
      [500, 'application/json'],
      [200, 'application/json; charset=utf-8'],
    ] as const) {
      const answer = lazyAnswer(status, type, 4 * READ.answerBytes);
      const ask = createDeviceAsk({
        identity: () => identity,
        scheduler: createManualScheduler(),
        fetch: () => Promise.resolve(answer.response),
        onOutcome: () => undefined,
      });
      const events = [];
      try {
        for await (const event of ask({ text: 'hello', signal: new AbortController().signal })) events.push(event);
      } catch (error) {
        events.push(String(error));
      }
      expect(events).toEqual(status === 200 ? [] : [expect.stringContaining('platform answered 500')]);
      expect(answer.made()).toBeLessThanOrEqual(most);
    }
  });

  it('a firmware download reads at most 4 MiB of an error answer', async () => {
    const answer = lazyAnswer(503, 'application/json', 4 * READ.answerBytes);
    const dest = join(await mkdtemp(join(tmpdir(), 'fw-ceiling-')), 'app.bin');
    const out = await downloadToFile(
      { scheduler: createManualScheduler(), fetch: () => Promise.resolve(answer.response) },
      'https://files.example/app.bin',
      dest,
      '0'.repeat(64),
    );
    expect(out).toMatchObject({ ok: false, failure: { kind: 'download', message: 'platform answered 503' } });
    expect(answer.made()).toBeLessThanOrEqual(most);
  });
});
