/**
 * The shared app builder (cockpit-app.ts) as each server uses it: the desktop server's and the
 * wheeled server's real builders, started the way their own app tests start them, answer the same
 * way on the middleware order, refuse a route table with a gap at build time, and shut down in
 * order (docs/architecture.md, "Requests" and "Build order").
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDesktopApp } from '../desktop/app.ts';
import { WS_CLOSE } from '../errors.ts';
import { silentLog } from '../log.ts';
import { remoteRequest, startHarness, TEST_TOKEN } from '../testing/cockpit-harness.ts';
import { createWheeledApp } from '../wheeled/app.ts';
import { OWNER_TOKEN, startWheeledHarness } from '../wheeled/testing/wheeled-harness.ts';
import type { CockpitApp } from './cockpit-app.ts';
import { createHostAllowlist } from './host-allowlist.ts';
import type { RouteSpec } from './route-table.ts';

const keyOf = (r: Pick<RouteSpec, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** A spec route both servers implement in a feature module, so a route list can leave it out. */
const LEFT_OUT = 'POST /api/chat';

/** What the checks need of a running server, whichever it is. */
interface Subject {
  url: string;
  port: number;
  token: string;
  /** A socket the owner may open, with its credential in the URL. */
  socketPath: string;
  /** The routes the running server was built with. */
  routes: readonly RouteSpec[];
  /** The server's own app builder, called again with the running server's parts and `routes`. */
  build(routes: readonly RouteSpec[]): CockpitApp;
  stop(): Promise<void>;
}

const hosts = createHostAllowlist();

async function desktop(): Promise<Subject> {
  const h = await startHarness();
  const { cockpit } = h;
  return {
    url: h.url,
    port: cockpit.port,
    token: TEST_TOKEN,
    socketPath: `/ws?token=${TEST_TOKEN}`,
    // The builder adds the read side and the shell itself; the rest of the running table is what
    // the entry passes (the socket route is declared in the spec table, not implemented).
    routes: cockpit.app.routes,
    build: (routes) =>
      createDesktopApp({
        config: { wsHz: 10 },
        log: silentLog,
        robot: cockpit.robot,
        gate: cockpit.access.gate,
        routes: [...routes],
        shellRoot: h.dataDir,
        hosts,
      }),
    stop: () => h.close(),
  };
}

async function wheeled(): Promise<Subject> {
  const h = await startWheeledHarness();
  const { server } = h;
  return {
    url: h.url,
    port: server.port,
    token: OWNER_TOKEN,
    socketPath: `/ws/state?token=${encodeURIComponent(h.serviceToken)}`,
    routes: server.features.routes,
    build: (routes) =>
      createWheeledApp({
        log: silentLog,
        gate: server.access.gate,
        routes,
        sockets: server.features.sockets,
        hosts,
      }),
    stop: () => h.close(),
  };
}

describe.each([
  { name: 'desktop', start: desktop },
  { name: 'wheeled', start: wheeled },
])('the $name server, built by the shared builder', ({ start }) => {
  let s: Subject;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(() => s.stop());

  it('refuses a malformed request before the access gate, with the security headers', async () => {
    // A keyed route and no credential: the gate would answer 401; the target check answers first.
    const res = await remoteRequest(`${s.url}/api/state?pad=${'x'.repeat(8200)}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'BAD_REQUEST', error: 'request target too long' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it("puts the security headers on the gate's refusal", async () => {
    const res = await remoteRequest(`${s.url}/api/state`);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers an unknown API route with the JSON 404', async () => {
    const res = await remoteRequest(`${s.url}/api/no-such-route`, { headers: { authorization: `Bearer ${s.token}` } });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers an unknown API route with the JSON 404 whatever the method, where the shell claimed it for GET', async () => {
    const authorization = `Bearer ${s.token}`;
    for (const path of ['/api/no-such-route', '/api']) {
      for (const method of ['OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        const res = await remoteRequest(`${s.url}${path}`, { method, headers: { authorization } });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(JSON.parse(res.body), `${method} ${path}`).toMatchObject({ code: 'NOT_FOUND' });
      }
    }
    // A real API route names only its own methods.
    const options = await remoteRequest(`${s.url}/api/chat`, { method: 'OPTIONS', headers: { authorization } });
    expect(options.status).toBe(200);
    expect(options.headers['allow']).toBe('POST');
  });

  it('builds the same table from the same routes, and refuses a list missing a spec route', () => {
    const again = s.build(s.routes);
    // The hub's ping timer is the one thing a build starts.
    again.hub.closeAll();
    expect(again.routes.map(keyOf)).toContain(LEFT_OUT);
    expect(() => s.build(s.routes.filter((r) => keyOf(r) !== LEFT_OUT))).toThrow(
      /POST \/api\/chat is (in the spec|declared) but not implemented/,
    );
  });

  it('stops in order: sockets get going-away, the port is released, the stop resolves', async () => {
    const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}${s.socketPath}`);
    const closed = once(ws, 'close') as Promise<[number, Buffer]>;
    await once(ws, 'open');
    await s.stop();
    const [code] = await closed;
    expect(code).toBe(WS_CLOSE.GOING_AWAY);
    // The port is free again: a new listener takes it.
    const probe = createServer();
    probe.listen(s.port, '127.0.0.1');
    await once(probe, 'listening');
    probe.close();
    await once(probe, 'close');
  });
});
