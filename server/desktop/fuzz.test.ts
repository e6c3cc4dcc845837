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

/** Routes fuzzed at once: a few in flight keep both cores busy without one route's slow cases holding the rest. */
const ROUTES_AT_ONCE = 4;

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** Every route's cases, drawn in route order from one seeded generator, so a seed names the same requests whatever the timing. */
function casesPerRoute(rng: () => number): { route: string; cases: Case[] }[] {
  return h.cockpit.app.routes
    .filter((route) => route.method !== 'WS')
    .map((route) => {
      // Speech, the reel and the self-test take seconds each; a few cases exercise them, the rest go elsewhere.
      const count = /\/(say|reel|selftest)$/.test(route.path) ? 6 : PER_ROUTE;
      const cases = Array.from({ length: count }, (): Case => {
        const req = fuzzRequest(rng, route.method);
        const path = route.path.replace(':cid', encodeURIComponent(String(rng()))).replace('{*path}', 'x%2F..%2Fy');
        const withAuth: Record<string, string> = rng() < 0.85 ? { authorization: `Bearer ${TEST_TOKEN}` } : {};
        const sendsBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
        return {
          method: req.method,
          path,
          headers: { ...req.headers, ...withAuth },
          body: sendsBody ? req.body : undefined,
        };
      });
      return { route: `${route.method} ${route.path}`, cases };
    });
}

/** What is wrong with one answer, if anything. */
function problemsOf(c: Case, res: { status: number; body: string }): string[] {
  const where = `${c.method} ${c.path} ${String(c.body).slice(0, 60)}`;
  const problems: string[] = [];
  if (res.status >= 500 && res.status !== 502 && res.status !== 503 && res.status !== 504)
    problems.push(`${res.status} ${where}`);
  if (res.status >= 400 && res.status !== 404 && c.method !== 'HEAD' && c.path.startsWith('/api/')) {
    let code: unknown;
    try {
      code = (JSON.parse(res.body) as { code?: unknown }).code;
    } catch {
      problems.push(`non-JSON ${res.status} ${where}`);
    }
    if (code !== undefined && !known.has(String(code))) problems.push(`unknown code ${String(code)} ${where}`);
    if (code === 'INTERNAL') problems.push(`INTERNAL ${where}`);
  }
  return problems;
}

it(`survives ${PER_ROUTE} generated requests per route (seed ${SEED})`, async () => {
  const queue = casesPerRoute(seeded(SEED));
  const problems: string[] = [];
  let sent = 0;
  // Each worker takes the next route, sends its cases in order, then checks the server still answers health.
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      for (const c of next.cases) {
        const res = await remoteRequest(`${h.url}${c.path}`, {
          method: c.method,
          headers: c.headers,
          ...(c.body !== undefined ? { body: c.body } : {}),
        });
        sent += 1;
        problems.push(...problemsOf(c, res));
      }
      const health = await fetch(`${h.url}/api/health`);
      if (health.status !== 200) problems.push(`health answered ${health.status} after ${next.route}`);
    }
  };
  await Promise.all(Array.from({ length: ROUTES_AT_ONCE }, worker));
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
