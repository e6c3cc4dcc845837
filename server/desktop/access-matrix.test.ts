/**
 * The access matrix, driven by the route table: every route of the desktop server times every
 * kind of caller, against what docs/contract.md, "Authentication" requires. Requests from
 * 127.0.0.2+ are remote peers; 127.0.0.1 with a loopback Host is a local caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { realSchedule, type TimerClock } from '../clock.ts';
import { SESSION_COOKIE } from '../http/caller.ts';
import type { RouteSpec } from '../http/route-table.ts';
import { remoteRequest, startHarness, TEST_TOKEN, type Harness } from '../testing/cockpit-harness.ts';

type Kind =
  | 'none'
  | 'bearer'
  | 'wrongBearer'
  | 'session'
  | 'expired'
  | 'local'
  | 'localProxied'
  | 'localForeignHost'
  | 'foreignOrigin';
const KINDS: Kind[] = [
  'none',
  'bearer',
  'wrongBearer',
  'session',
  'expired',
  'local',
  'localProxied',
  'localForeignHost',
  'foreignOrigin',
];

let h: Harness;
let expiredCookie = '';
let peer = 10;
/** Each failing remote request gets its own address so the brute-force delay never slows the matrix. */
const nextPeer = () => `127.0.0.${(peer = peer >= 250 ? 10 : peer + 1)}`;

/** The cockpit's clock: real time, plus whatever the test has moved it on by. */
let movedOnMs = 0;
const clock: TimerClock = { now: () => Date.now() + movedOnMs, schedule: realSchedule };

beforeAll(async () => {
  h = await startHarness({ ROBOT_RATE_LIMIT: '1000' }, { clock });
  const expiring = await h.cockpit.access.sessions.create({ credentialId: 'matrix', ttlSeconds: 1 });
  expiredCookie = expiring.id;
  // The session's second passes at once; every other session of the matrix lives for hours.
  movedOnMs = 2000;
  expect(h.cockpit.access.sessions.isLive(expiring.key)).toBe(false);
});
afterAll(() => h.close());

/** Owner-only public routes (the handler enforces it) behave like key routes for this matrix. */
const OWNER_ONLY = new Set(['GET /api/auth/credentials', 'DELETE /api/auth/credentials/:cid']);

function expected(route: RouteSpec, kind: Kind): 'allowed' | 401 | 403 {
  // A foreign Host is refused before anything else: the DNS rebinding defence.
  if (kind === 'localForeignHost') return 403;
  const keyed = route.access !== 'public' || OWNER_ONLY.has(`${route.method} ${route.path}`);
  if (!keyed) return 'allowed';
  if (route.control && kind === 'foreignOrigin') return 403;
  if (kind === 'bearer' || kind === 'session' || kind === 'foreignOrigin') return 'allowed';
  if (kind === 'local') {
    // Passkey management is for the owner's key, never for loopback trust.
    if (OWNER_ONLY.has(`${route.method} ${route.path}`)) return 401;
    if (route.access === 'key+loopback') return 'allowed';
    return route.method === 'GET' || route.method === 'WS' ? 'allowed' : 401;
  }
  return 401;
}

function concretePath(route: RouteSpec): string {
  return route.path.replace(':cid', 'no-such-credential').replace('{*path}', 'some/page');
}

async function headersFor(
  kind: Kind,
  route: RouteSpec,
): Promise<{ headers: Record<string, string>; localAddress: string }> {
  const host = new URL(h.url).host;
  const remote = { localAddress: nextPeer() };
  const origin = { origin: h.url };
  switch (kind) {
    case 'none':
      return { ...remote, headers: {} };
    case 'bearer':
      return { ...remote, headers: { authorization: `Bearer ${TEST_TOKEN}` } };
    case 'wrongBearer':
      return { ...remote, headers: { authorization: 'Bearer not-the-token-at-all' } };
    case 'session': {
      const session = await h.cockpit.access.sessions.create({ credentialId: 'matrix', ttlSeconds: 600 });
      return { ...remote, headers: { cookie: `${SESSION_COOKIE}=${session.id}`, ...(route.control ? origin : {}) } };
    }
    case 'expired':
      return { ...remote, headers: { cookie: `${SESSION_COOKIE}=${expiredCookie}`, ...origin } };
    case 'local':
      return { localAddress: '127.0.0.1', headers: { host } };
    case 'localProxied':
      return { localAddress: '127.0.0.1', headers: { host, 'x-forwarded-for': '203.0.113.9' } };
    case 'localForeignHost':
      return { localAddress: '127.0.0.1', headers: { host: 'robot.example.com' } };
    case 'foreignOrigin':
      return { ...remote, headers: { authorization: `Bearer ${TEST_TOKEN}`, origin: 'http://evil.example' } };
  }
}

function socketOutcome(url: string, headers: Record<string, string>, localAddress: string): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers, localAddress });
    let opened = false;
    ws.on('open', () => {
      opened = true;
      setTimeout(() => {
        if (ws.readyState === WebSocket.OPEN) {
          ws.close();
          resolve('open');
        }
      }, 150);
    });
    ws.on('close', (code) => (opened ? resolve(code === 1005 || code === 1000 ? 'open' : code) : resolve(code)));
    ws.on('error', () => resolve(-1));
  });
}

describe('access matrix of the desktop server', () => {
  it('declares exactly the 39 routes of the spec, 11 public, in one table', () => {
    const spec = h.cockpit.app.routes.filter((r) => !r.path.startsWith('/api/console/'));
    expect(spec).toHaveLength(39);
    expect(spec.filter((r) => r.access === 'public')).toHaveLength(11);
    expect(
      h.cockpit.app.routes.filter((r) => r.path.startsWith('/api/console/')).every((r) => r.access !== 'public'),
    ).toBe(true);
  });

  it('answers every route for every caller kind as the spec requires', async () => {
    const mismatches: string[] = [];
    for (const route of h.cockpit.app.routes) {
      for (const kind of KINDS) {
        const want = expected(route, kind);
        const { headers, localAddress } = await headersFor(kind, route);
        let got: number | 'open';
        if (route.method === 'WS') {
          const wsHeaders = { ...headers };
          const url = `${h.url.replace('http', 'ws')}${route.path}${kind === 'bearer' || kind === 'foreignOrigin' ? `?token=${TEST_TOKEN}` : ''}`;
          delete wsHeaders['authorization'];
          got = await socketOutcome(url, wsHeaders, localAddress);
          const wantCode = want === 403 ? 4403 : 4401;
          const ok = want === 'allowed' ? got === 'open' : got === wantCode;
          if (!ok)
            mismatches.push(`WS ${route.path} as ${kind}: want ${want === 'allowed' ? 'open' : wantCode}, got ${got}`);
          continue;
        }
        const res = await remoteRequest(`${h.url}${concretePath(route)}`, {
          method: route.method,
          headers: { ...headers, ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
          localAddress,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: '{}' }),
        });
        got = res.status;
        const ok =
          want === 'allowed' ? (got !== 401 && got !== 403 && got < 500) || got === 502 || got === 503 : got === want;
        if (!ok)
          mismatches.push(
            `${route.method} ${route.path} as ${kind}: want ${want}, got ${got} ${res.body.slice(0, 80)}`,
          );
        if (res.status >= 400 && res.status !== 404 && !res.headers['content-type']?.toString().includes('json')) {
          mismatches.push(`${route.method} ${route.path} as ${kind}: error without a JSON body`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 300_000);

  it('accepts ?token= only on image, stream and socket URLs', async () => {
    const viaQuery = (path: string) =>
      remoteRequest(`${h.url}${path}?token=${TEST_TOKEN}`, { localAddress: nextPeer() });
    expect((await viaQuery('/api/state')).status).toBe(401);
    expect((await viaQuery('/api/snapshot.jpg')).status).not.toBe(401);
    expect((await viaQuery('/api/stream')).status).not.toBe(401);
  });

  it('refuses a cookie session on a control route without an Origin, but lets a bearer script in', async () => {
    const session = await h.cockpit.access.sessions.create({ credentialId: 'matrix', ttlSeconds: 600 });
    const noOrigin = await remoteRequest(`${h.url}/api/control/home`, {
      method: 'POST',
      headers: { cookie: `${SESSION_COOKIE}=${session.id}` },
      localAddress: nextPeer(),
    });
    expect(noOrigin.status).toBe(403);
    const nullOrigin = await remoteRequest(`${h.url}/api/control/home`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, origin: 'null' },
      localAddress: nextPeer(),
    });
    expect(nullOrigin.status).toBe(403);
  });
});
