/**
 * Sockets opened by another site's page: WebSockets are not bound by CORS, so the hub itself
 * refuses a foreign Origin (4403) when the caller's credential is an ambient one, the session
 * cookie or a browser's loopback trust. Pages of the server's own origin, of ROBOT_ORIGIN, clients
 * that send no Origin (no page opened them) and tokens in the URL are admitted.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '../errors.ts';
import { silentLog } from '../log.ts';
import { listen } from './listeners.ts';
import { WsHub } from './ws-hub.ts';

const TOKEN = 'origin-test-owner-token-0123456789';
const SESSION = 'origin-test-session-id';
const TUNNEL = 'https://robot.example.net';

let server: Server;
let hub: WsHub;
let port: number;

beforeAll(async () => {
  hub = new WsHub({
    credentials: {
      ownerToken: TOKEN,
      validateSession: (id) =>
        id === SESSION
          ? { key: 'origin-test-key', credentialId: 'origin-test-passkey', expiresAt: Date.now() + 3_600_000 }
          : undefined,
    },
    loopbackReads: true,
    allowedOrigins: [TUNNEL],
    log: silentLog,
  });
  hub.mount({
    routes: [{ method: 'WS', path: '/ws', access: 'key', queryToken: true, summary: 'test socket' }],
    handlers: { '/ws': (client) => void client.send({ type: 'welcome', kind: client.caller.kind }) },
  });
  server = createServer();
  hub.attach(server);
  port = await listen(server, 0, '127.0.0.1');
});

afterAll(async () => {
  hub.closeAll();
  await new Promise((resolve) => server.close(resolve));
});

/** The first thing the socket hears: the handler's welcome (admitted) or the close code (refused). */
function firstWord(options: { origin?: string; cookie?: string; token?: string }): Promise<string | number> {
  const query = options.token ? `?token=${options.token}` : '';
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws${query}`, {
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.cookie ? { headers: { cookie: `cockpit_session=${options.cookie}` } } : {}),
  });
  return new Promise((resolve, reject) => {
    ws.once('message', (data) => {
      resolve((JSON.parse(String(data)) as { kind: string }).kind);
      ws.close();
    });
    ws.once('close', (code) => resolve(code));
    ws.once('error', reject);
  });
}

it('refuses a foreign page riding on a browser’s loopback trust or its session cookie', async () => {
  expect(await firstWord({ origin: 'https://evil.example' })).toBe(WS_CLOSE.FORBIDDEN);
  expect(await firstWord({ origin: 'http://127.0.0.1:8000' })).toBe(WS_CLOSE.FORBIDDEN);
  expect(await firstWord({ origin: 'null' })).toBe(WS_CLOSE.FORBIDDEN);
  expect(await firstWord({ origin: 'https://evil.example', cookie: SESSION })).toBe(WS_CLOSE.FORBIDDEN);
});

it('admits the server’s own pages, ROBOT_ORIGIN, clients without an Origin and tokens in the URL', async () => {
  expect(await firstWord({ origin: `http://127.0.0.1:${port}` })).toBe('loopback');
  expect(await firstWord({ origin: `http://127.0.0.1:${port}`, cookie: SESSION })).toBe('passkey');
  expect(await firstWord({ origin: TUNNEL, cookie: SESSION })).toBe('passkey');
  expect(await firstWord({})).toBe('loopback');
  expect(await firstWord({ cookie: SESSION })).toBe('passkey');
  expect(await firstWord({ origin: 'https://evil.example', token: TOKEN })).toBe('token');
});
