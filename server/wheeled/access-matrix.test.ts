/**
 * The access matrix of the wheeled server, driven by its route table: every route times every kind of
 * caller, against docs/contract.md, "Authentication": anonymous /api/* and pages behind
 * a key get 401 {error}, anonymous sockets close with 4401, the 15 public routes answer anyone.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteSpec } from '../http/route-table.ts';
import { JWT_SECRET_FILE } from './auth/jwt-secret.ts';
import { signToken } from './auth/jwt.ts';
import { SERVER_B_ROUTES } from './routes/spec-routes.ts';
import { closeCode, OWNER_TOKEN, startWheeledHarness, type WheeledHarness } from './testing/wheeled-harness.ts';

type Kind = 'none' | 'wrongBearer' | 'expiredJwt' | 'owner' | 'sessionJwt' | 'service' | 'thinker' | 'foreignOrigin';
const KINDS: Kind[] = [
  'none',
  'wrongBearer',
  'expiredJwt',
  'owner',
  'sessionJwt',
  'service',
  'thinker',
  'foreignOrigin',
];
/** Public routes whose handler allows only the owner (server/auth/auth-routes.ts). */
const OWNER_ONLY = new Set(['GET /api/auth/credentials', 'DELETE /api/auth/credentials/:cid']);

let h: WheeledHarness;
let expiredJwt = '';
let thinkerToken = '';

beforeAll(async () => {
  h = await startWheeledHarness({ env: { ROBOT_RATE_LIMIT: '1000' } });
  const secret = Buffer.from((await readFile(join(h.dataDir, JWT_SECRET_FILE), 'utf8')).trim(), 'base64url');
  const now = Math.floor(Date.now() / 1000);
  expiredJwt = await signToken(secret, {
    typ: 'service',
    sub: 'script',
    name: 'old',
    jti: randomUUID(),
    iat: now - 120,
    exp: now - 60,
  });
  thinkerToken = (await h.server.mintServiceToken({ sub: 'thinker', name: 'persona', ttlSeconds: 3600 })).token;
});
afterAll(() => h.close());

const keyOf = (r: Pick<RouteSpec, 'method' | 'path'>) => `${r.method} ${r.path}`;

function expected(route: RouteSpec, kind: Kind): 'allowed' | 401 | 403 {
  const keyed = route.access !== 'public' || OWNER_ONLY.has(keyOf(route));
  if (!keyed) return 'allowed';
  if (kind === 'none' || kind === 'wrongBearer' || kind === 'expiredJwt') return 401;
  if (route.control && kind === 'foreignOrigin') return 403;
  const serviceToken = kind === 'service' || kind === 'thinker';
  if (serviceToken && route.path.startsWith('/api/console/tokens')) return 403;
  // Only a passkey session is refreshed; bearer tokens carry their own lifetime.
  if (route.path === '/api/auth/refresh' && kind !== 'sessionJwt') return 403;
  return 'allowed';
}

async function tokenFor(kind: Kind): Promise<string | undefined> {
  switch (kind) {
    case 'none':
      return undefined;
    case 'wrongBearer':
      return 'not-a-token-at-all';
    case 'expiredJwt':
      return expiredJwt;
    case 'owner':
    case 'foreignOrigin':
      return OWNER_TOKEN;
    case 'sessionJwt':
      return h.sessionJwt();
    case 'service':
      return h.serviceToken;
    case 'thinker':
      return thinkerToken;
  }
}

/** One request; a stream (MJPEG) is judged by its head and then cut. */
function send(
  route: RouteSpec,
  token: string | undefined,
  kind: Kind,
): Promise<{ status: number; body: string; type: string }> {
  const path = route.path
    .replace(':cid', 'no-such-credential')
    .replace(':id', 'no-such-token')
    .replace('{*path}', 'some/page');
  const headers: Record<string, string> = {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(kind === 'foreignOrigin' ? { origin: 'http://evil.example' } : {}),
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
  };
  return new Promise((resolve, reject) => {
    const req = request(`${h.url}${path}`, { method: route.method, headers }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      if (type.startsWith('multipart/')) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, body: '', type });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), type }));
    });
    req.on('error', reject);
    req.end(route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}');
  });
}

describe('access matrix of the wheeled server', () => {
  it('declares exactly 38 routes, 15 of them public, in one table that the app serves', () => {
    expect(SERVER_B_ROUTES).toHaveLength(38);
    expect(SERVER_B_ROUTES.filter(([, , access]) => access === 'public')).toHaveLength(15);
    expect(h.server.app.routes.map(keyOf)).toEqual(SERVER_B_ROUTES.map(([method, path]) => `${method} ${path}`));
    expect(h.server.app.routes.every((r) => r.access !== 'key+loopback')).toBe(true);
  });

  it('answers every route for every caller kind as the spec requires', async () => {
    const mismatches: string[] = [];
    for (const route of h.server.app.routes) {
      for (const kind of KINDS) {
        const want = expected(route, kind);
        const token = await tokenFor(kind);
        if (route.method === 'WS') {
          const got = await closeCode(`${h.wsUrl}${route.path}${token ? `?token=${encodeURIComponent(token)}` : ''}`);
          const ok = want === 'allowed' ? got === 'open' : got === 4401;
          if (!ok)
            mismatches.push(`WS ${route.path} as ${kind}: want ${want === 'allowed' ? 'open' : 4401}, got ${got}`);
          continue;
        }
        const res = await send(route, token, kind);
        const ok =
          want === 'allowed'
            ? res.status !== 401 && res.status !== 403 && (res.status < 500 || res.status === 503)
            : res.status === want;
        if (!ok)
          mismatches.push(`${keyOf(route)} as ${kind}: want ${want}, got ${res.status} ${res.body.slice(0, 100)}`);
        if (want === 401 && ok && !(JSON.parse(res.body) as { error?: unknown }).error)
          mismatches.push(`${keyOf(route)} as ${kind}: 401 without {error}`);
        // API errors are JSON; the shell answers text (e.g. 503 before the dashboard is built).
        if (res.status >= 400 && res.status !== 404 && route.path.startsWith('/api/') && !res.type.includes('json'))
          mismatches.push(`${keyOf(route)} as ${kind}: error without a JSON body`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('takes ?token= only on image, stream and socket URLs', async () => {
    expect((await h.call(`/api/state?token=${encodeURIComponent(h.serviceToken)}`, { token: null })).status).toBe(401);
    expect(
      (await h.call(`/api/snapshot.jpg?token=${encodeURIComponent(h.serviceToken)}`, { token: null })).status,
    ).toBe(200);
  });

  it('does not trust loopback callers on the wheeled server', async () => {
    // The harness calls from 127.0.0.1 with a loopback Host: the desktop server would let it read.
    const res = await h.call('/api/state', { token: null });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ error: expect.any(String), code: 'AUTH_REQUIRED' });
  });
});
