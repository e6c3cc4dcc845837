/**
 * Loopback trust and browser pages (access-gate.ts): a browser on the robot's machine sends every
 * site's requests from 127.0.0.1 with a loopback Host, and a text/plain POST needs no CORS
 * preflight. A request that names a foreign page in Origin therefore gets no loopback trust (403);
 * the server's own pages, ROBOT_ORIGIN, programs that send no Origin and keyed callers keep theirs.
 */
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { remoteRequest } from '../testing/cockpit-harness.ts';
import { errorHandler } from './error-handler.ts';
import { mountGatedRoutes } from './gated-routes.ts';
import { listen } from './listeners.ts';

const TOKEN = 'gate-test-owner-token-0123456789';
const TUNNEL = 'https://robot.example.net';

let server: Server;
let url: string;
/** How many times the switch's handler ran. */
let switched = 0;

beforeAll(async () => {
  const koa = new Koa();
  koa.use(errorHandler(silentLog));
  mountGatedRoutes(
    koa,
    [
      {
        method: 'POST',
        path: '/api/switch',
        access: 'key+loopback',
        summary: 'a switch loopback programs may flip',
        handler: (ctx) => {
          switched += 1;
          ctx.body = { switched };
        },
      },
      {
        method: 'GET',
        path: '/api/health',
        access: 'public',
        summary: 'health',
        handler: (ctx) => void (ctx.body = { ok: true }),
      },
    ],
    {
      credentials: { ownerToken: TOKEN, validateSession: () => undefined },
      loopbackReads: true,
      allowedOrigins: [TUNNEL],
    },
  );
  server = createServer(koa.callback());
  url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

/** POSTs the switch from this machine, as a browser's simple request would, with `headers` added. */
function flip(headers: Record<string, string>) {
  return remoteRequest(`${url}/api/switch`, {
    method: 'POST',
    localAddress: '127.0.0.1',
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: '{"enabled":true}',
  });
}

it('refuses a foreign page the loopback trust of the browser that sent it', async () => {
  for (const origin of ['https://evil.example', 'http://localhost:8000', 'null']) {
    const answer = await flip({ origin });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'ORIGIN_REFUSED' });
  }
  // The refusals never reached the switch: the next accepted flip is its first.
  expect(JSON.parse((await flip({})).body)).toEqual({ switched: 1 });
});

it('keeps loopback trust for its own pages, ROBOT_ORIGIN and programs, and a key for anyone', async () => {
  const before = switched;
  expect((await flip({ origin: url })).status).toBe(200);
  expect((await flip({ origin: TUNNEL })).status).toBe(200);
  expect((await flip({})).status).toBe(200);
  expect((await flip({ origin: 'https://evil.example', authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  expect(switched).toBe(before + 4);
  // Public routes serve any page.
  const health = await remoteRequest(`${url}/api/health`, {
    localAddress: '127.0.0.1',
    headers: { origin: 'https://evil.example' },
  });
  expect(health.status).toBe(200);
});
