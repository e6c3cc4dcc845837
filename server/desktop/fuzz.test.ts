/**
 * Thousands of generated requests to every route of the desktop server and every socket message
 * type. No 500, every error is JSON with a catalogue code, nothing is polluted, and the server
 * answers health checks throughout.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ERROR_CODES } from '../errors.ts';
import { fuzzRequest, fuzzSocketMessage, seeded } from '../testing/fuzz.ts';
import { remoteRequest, startHarness, TEST_TOKEN, type Harness } from '../testing/cockpit-harness.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261121);
const PER_ROUTE = 60;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ROBOT_RATE_LIMIT: '1000' });
});
afterAll(() => h.close(), 60_000);

const known = new Set([...Object.keys(ERROR_CODES), 'INTERNAL']);

it(`survives ${PER_ROUTE} generated requests per route (seed ${SEED})`, async () => {
  const rng = seeded(SEED);
  const problems: string[] = [];
  let sent = 0;
  for (const route of h.cockpit.app.routes) {
    if (route.method === 'WS') continue;
    // Speech and the reel take seconds each; a few cases exercise them, the rest go elsewhere.
    const cases = /\/(say|reel)$/.test(route.path) ? 6 : PER_ROUTE;
    for (let i = 0; i < cases; i += 1) {
      const req = fuzzRequest(rng, route.method);
      const path = route.path.replace(':cid', encodeURIComponent(String(rng()))).replace('{*path}', 'x%2F..%2Fy');
      const withAuth: Record<string, string> = rng() < 0.85 ? { authorization: `Bearer ${TEST_TOKEN}` } : {};
      const res = await remoteRequest(`${h.url}${path}`, {
        method: req.method,
        headers: { ...req.headers, ...withAuth },
        ...(req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD' ? { body: req.body } : {}),
      });
      sent += 1;
      const where = `${req.method} ${path} ${String(req.body).slice(0, 60)}`;
      if (res.status >= 500 && res.status !== 502 && res.status !== 503 && res.status !== 504) problems.push(`${res.status} ${where}`);
      if (res.status >= 400 && res.status !== 404 && req.method !== 'HEAD' && path.startsWith('/api/')) {
        let code: unknown;
        try {
          code = (JSON.parse(res.body) as { code?: unknown }).code;
        } catch {
          problems.push(`non-JSON ${res.status} ${where}`);
        }
        if (code !== undefined && !known.has(String(code))) problems.push(`unknown code ${String(code)} ${where}`);
        if (code === 'INTERNAL') problems.push(`INTERNAL ${where}`);
      }
    }
    const health = await fetch(`${h.url}/api/health`);
    if (health.status !== 200) problems.push(`health answered ${health.status} after ${route.method} ${route.path}`);
  }
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(problems.slice(0, 20)).toEqual([]);
  expect(sent).toBeGreaterThan(2000);
}, 600_000);

it('survives generated socket messages and keeps serving', async () => {
  const rng = seeded(SEED + 1);
  const ws = new WebSocket(`${h.url.replace('http', 'ws')}/ws?token=${TEST_TOKEN}`);
  await new Promise((r) => ws.once('open', r));
  let closed: number | undefined;
  ws.on('close', (code) => (closed = code));
  for (let i = 0; i < 1500; i += 1) ws.send(fuzzSocketMessage(rng));
  // The barrier: a message the cockpit answers, sent after all of them on the same socket. Its
  // answer comes after every earlier message was handled; a socket closed by one never gets it.
  const marker = 'fuzz-barrier';
  const answered = new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      if (String(data).includes('BAD_REQUEST') && String(data).includes(marker)) resolve();
    }),
  );
  ws.send(JSON.stringify({ type: marker }));
  await Promise.race([answered, new Promise((resolve) => ws.once('close', resolve))]);
  expect(closed).toBeUndefined();
  ws.close();
  expect((await fetch(`${h.url}/api/health`)).status).toBe(200);
});
