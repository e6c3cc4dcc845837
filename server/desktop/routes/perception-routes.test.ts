import Router from '@koa/router';
import Koa from 'koa';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGate } from '../../http/access-gate.ts';
import { errorHandler } from '../../http/error-handler.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { silentLog } from '../../log.ts';
import { HOLD_MAX, HOLD_NAME_MAX } from '../../perception/holds.ts';
import { startStack, waitFor, type Stack } from '../../perception/testing/stack.ts';
import { perceptionRoutes } from './perception-routes.ts';

const TOKEN = 'perception-test-token-0123456789';

/** The routes behind the real access gate: a fetch from this process is a loopback caller. */
function buildApp(routes: RouteSpec[]): Koa {
  const koa = new Koa();
  koa.use(errorHandler(silentLog));
  const router = new Router();
  const gate = { credentials: { ownerToken: TOKEN, validateSession: () => undefined }, loopbackReads: true };
  for (const r of routes) {
    const verb = r.method === 'GET' ? 'get' : 'post';
    router[verb](r.path, accessGate(r, gate), r.handler as Koa.Middleware);
  }
  koa.use(router.routes()).use(router.allowedMethods());
  return koa;
}

let stack: Stack;
let server: Server;
let base: string;
let routes: RouteSpec[];

beforeAll(async () => {
  stack = await startStack();
  routes = perceptionRoutes({ tracking: stack.tracking, doa: stack.doa });
  server = buildApp(routes).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

type Reply = { status: number; json: Record<string, unknown> };

async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> } as Reply;
}
const post = (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body, headers);
/** The tunnel's header: the same loopback peer, but no longer a local caller. */
const REMOTE = { 'cf-ray': '8f00000000000000-AMS' };

describe('route table', () => {
  it('declares the spec access and no control flag (not rate-limited, no Origin check)', () => {
    expect(routes.map((r) => [r.method, r.path, r.access, r.control ?? false])).toEqual([
      ['GET', '/api/tracking', 'key', false],
      ['POST', '/api/tracking', 'key+loopback', false],
      ['POST', '/api/tracking/hold', 'key+loopback', false],
      ['GET', '/api/doa', 'key', false],
      ['POST', '/api/doa', 'key+loopback', false],
    ]);
  });
});

describe('tracking routes, loopback caller without a key', () => {
  it('reads the status', async () => {
    const res = await call('GET', '/api/tracking');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ enabled: true, paused: false, holds: [], engine: 'sim:geometry' });
    expect(Object.keys(res.json)).toEqual(expect.arrayContaining(['detected', 'x', 'y']));
  });

  it('switches the daemon tracker off and on', async () => {
    expect((await post('/api/tracking', { enabled: false })).json).toMatchObject({ enabled: false });
    expect((await stack.simStatus()).tracking.enabled).toBe(false);
    expect((await post('/api/tracking', { enabled: true })).json).toMatchObject({ enabled: true, weight: 1 });
    expect((await stack.simStatus()).tracking).toEqual({ enabled: true, weight: 1 });
  });

  it('a hold pauses tracking, reports the clamped TTL, and its release resumes', async () => {
    const res = await post('/api/tracking/hold', { name: 'look', on: true, ttl: 500 });
    expect(res.status).toBe(200);
    expect(res.json.hold).toEqual({ name: 'look', on: true, ttl: 120, active: true, requested: 500 });
    expect(res.json.tracking).toMatchObject({ paused: true, holds: [{ name: 'look', remaining: 120 }] });
    expect((await stack.simStatus()).tracking.weight).toBe(0);
    const off = await post('/api/tracking/hold', { name: 'look', on: false });
    expect(off.json.hold).toEqual({ name: 'look', on: false, active: false });
    expect((await stack.simStatus()).tracking.weight).toBe(1);
  });

  it.each([
    [
      { name: 'emotion:sad1', ttl: 0.1 },
      { ttl: 0.5, requested: 0.1 },
    ],
    [{ name: 'emotion:sad1' }, { ttl: 20 }],
    [{ name: 'emotion:sad1', on: true, ttl: 8 }, { ttl: 8 }],
  ])('hold %j applies %j', async (body, expected) => {
    const res = await post('/api/tracking/hold', body);
    expect(res.json.hold).toEqual({ name: 'emotion:sad1', on: true, active: true, ...expected });
    await post('/api/tracking/hold', { name: 'emotion:sad1', on: false });
  });

  it('a speaking hold without a face is recorded but does not pause', async () => {
    const res = await post('/api/tracking/hold', { name: 'speaking', ttl: 2 });
    expect(res.json.hold).toEqual({ name: 'speaking', on: true, ttl: 2, active: false });
    expect(res.json.tracking).toMatchObject({ paused: false });
    await post('/api/tracking/hold', { name: 'speaking', on: false });
  });
});

describe('tracking hold cap', () => {
  it(`refuses a new name past ${HOLD_MAX} standing holds with 409 CONFLICT, but renews one`, async () => {
    const names = Array.from({ length: HOLD_MAX }, (_, i) => `persona:${i}`.padEnd(HOLD_NAME_MAX, 'x'));
    try {
      for (const name of names) expect((await post('/api/tracking/hold', { name, ttl: 60 })).status).toBe(200);
      const refused = await post('/api/tracking/hold', { name: 'one-too-many', ttl: 60 });
      expect(refused.status).toBe(409);
      expect(refused.json).toEqual({ code: 'CONFLICT', error: expect.stringContaining(`at most ${HOLD_MAX}`) });
      const renewed = await post('/api/tracking/hold', { name: names[0], ttl: 90 });
      expect(renewed.status).toBe(200);
      expect(renewed.json.hold).toMatchObject({ name: names[0], ttl: 90, active: true });
      expect((renewed.json.tracking as { holds: unknown[] }).holds).toHaveLength(HOLD_MAX);
      // The cockpit's own holds take no admission: a move's hold still stands at the cap.
      stack.tracking.take('emotion:wake_up', 5);
      expect(stack.tracking.liveHolds()).toContain('emotion:wake_up');
      stack.tracking.release('emotion:wake_up');
    } finally {
      for (const name of [...names, 'one-too-many']) await post('/api/tracking/hold', { name, on: false });
    }
    expect((await call('GET', '/api/tracking')).json).toMatchObject({ holds: [], paused: false });
  });
});

describe('doa routes, loopback caller without a key', () => {
  it('reads the status and toggles the turner', async () => {
    const res = await call('GET', '/api/doa');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ enabled: true, turns: 0, windupRefusals: 0, sign: { agree: 0, disagree: 0 } });
    expect(Object.keys(res.json)).toEqual(expect.arrayContaining(['bearing', 'why']));
    expect((await post('/api/doa', { enabled: false })).json).toMatchObject({ enabled: false, why: 'disabled' });
    expect((await post('/api/doa', { enabled: true })).json).toMatchObject({ enabled: true });
  });
});

describe('edge validation: 400 naming the field, nothing applied', () => {
  it.each([
    ['/api/tracking', {}, /^enabled must be true or false/],
    ['/api/tracking', { enabled: 'yes' }, /^enabled must be true or false/],
    ['/api/tracking', { enabled: 1 }, /^enabled must be true or false/],
    ['/api/tracking', { enabled: true, weight: 1 }, /^unknown field weight/],
    ['/api/tracking', [true], /^body must be a JSON object/],
    ['/api/tracking/hold', {}, /^name is required/],
    ['/api/tracking/hold', { name: '' }, /^name must be a non-empty string/],
    ['/api/tracking/hold', { name: 7 }, /^name must be a non-empty string/],
    ['/api/tracking/hold', { name: 'x'.repeat(65) }, /^name must be at most 64 characters/],
    ['/api/tracking/hold', { name: 'look\n' }, /^name must not contain control characters/],
    ['/api/tracking/hold', { name: 'look', ttl: '5' }, /^ttl must be a number/],
    ['/api/tracking/hold', { name: 'look', ttl: null }, /^ttl must be a number/],
    ['/api/tracking/hold', { name: 'look', on: 'yes' }, /^on must be true or false/],
    ['/api/tracking/hold', { name: 'look', on: null }, /^on must be true or false/],
    ['/api/tracking/hold', { name: 'look', tll: 5 }, /^unknown field tll/],
    ['/api/doa', { enabled: 'off' }, /^enabled must be true or false/],
    ['/api/doa', {}, /^enabled must be true or false/],
  ])('POST %s %j', async (path, body, message) => {
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'BAD_REQUEST' });
    expect(res.json.error).toMatch(message);
    expect(stack.tracking.status().holds).toEqual([]);
  });

  it('a 64-character name is fine', async () => {
    const name = 'n'.repeat(64);
    expect((await post('/api/tracking/hold', { name, ttl: 1 })).status).toBe(200);
    await post('/api/tracking/hold', { name, on: false });
  });

  it('malformed JSON is a BAD_JSON 400', async () => {
    expect(await post('/api/tracking/hold', '{"name": ')).toMatchObject({ status: 400, json: { code: 'BAD_JSON' } });
  });
});

describe('callers that are not local', () => {
  it('need the key, reads included', async () => {
    expect((await post('/api/tracking/hold', { name: 'look' }, REMOTE)).status).toBe(401);
    expect((await post('/api/doa', { enabled: false }, REMOTE)).status).toBe(401);
    expect((await call('GET', '/api/tracking', undefined, REMOTE)).status).toBe(401);
    const keyed = { ...REMOTE, authorization: `Bearer ${TOKEN}` };
    const res = await post('/api/tracking/hold', { name: 'look', ttl: 1 }, keyed);
    expect(res.status).toBe(200);
    await post('/api/tracking/hold', { name: 'look', on: false }, keyed);
  });
});

describe('daemon refusals', () => {
  it('switching on with the backend stopped answers 503 DAEMON_STOPPED and stays off', async () => {
    await post('/api/tracking', { enabled: false });
    await stack.simPost('/sim/backend', { action: 'stop' });
    await waitFor('the backend down', async () => !(await stack.simStatus()).backend.ready);
    const res = await post('/api/tracking', { enabled: true });
    expect(res).toMatchObject({ status: 503, json: { code: 'DAEMON_STOPPED' } });
    expect(stack.tracking.status().enabled).toBe(false);
    await stack.simPost('/sim/backend', { action: 'start' });
    await waitFor('the backend back', async () => (await stack.simStatus()).backend.ready);
    expect((await post('/api/tracking', { enabled: true })).json).toMatchObject({ enabled: true, weight: 1 });
  });
});
