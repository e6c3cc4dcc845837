/**
 * The cockpit in front of a daemon that says odd things (testing/mutating-daemon.ts): about a
 * third of the daemon's JSON answers and state frames have a member swapped for a value of
 * another type. Every route that reads from or writes to the daemon is asked, again and again.
 * A daemon answer is input from outside, so none may become a 500, an error outside the
 * catalogue, or a crash; and once the daemon speaks plainly again, the cockpit is well.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MOVE_UUID } from '../daemon/daemon-client.ts';
import { ERROR_CODES } from '../errors.ts';
import { startSimDaemon, type SimDaemon } from '../sim/index.ts';
import { startHarness, type Harness } from '../testing/cockpit-harness.ts';
import { startMutatingDaemon, type MutatingDaemon } from '../testing/mutating-daemon.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261202);
// Each round is 27 requests through two proxies: 15 take a few seconds on a busy two-core machine,
// where 40 came near the test's time limit. FUZZ_ROUNDS asks for a longer run by hand.
const ROUNDS = Number(process.env['FUZZ_ROUNDS'] ?? 15);

let sim: SimDaemon;
let daemon: MutatingDaemon;
let h: Harness;
beforeAll(async () => {
  sim = await startSimDaemon();
  // The route list is read once, at connect: changed, it would only hide routes from the test.
  daemon = await startMutatingDaemon({ upstream: sim.url, seed: SEED, spare: (path) => path === '/openapi.json' });
  h = await startHarness({ ROBOT_RATE_LIMIT: '1000' }, { daemonUrl: daemon.url });
});
afterAll(async () => {
  await h?.close();
  await daemon?.close();
  await sim?.close();
});

/** What the dashboard and the owner ask of the routes that reach the daemon. */
const REQUESTS: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/health'],
  ['GET', '/api/state'],
  ['GET', '/api/telemetry'],
  ['GET', '/api/emotions'],
  ['GET', '/api/tracking'],
  ['GET', '/api/doa'],
  ['GET', '/api/console/apps'],
  ['GET', '/api/console/apps/store'],
  ['GET', '/api/console/apps/logs'],
  ['GET', '/api/console/selftest'],
  ['GET', '/api/console/health/history'],
  ['GET', '/api/console/setup'],
  ['POST', '/api/control/look', { yaw: 10, pitch: -5, duration: 0.2 }],
  ['POST', '/api/control/antennas', { right: 20, left: -20 }],
  ['POST', '/api/control/home'],
  ['POST', '/api/control/express', { name: 'happy' }],
  ['POST', '/api/control/motors', { mode: 'enabled' }],
  ['POST', '/api/control/volume', { level: 40 }],
  ['POST', '/api/control/wake'],
  ['POST', '/api/control/sleep'],
  ['POST', '/api/tracking', { enabled: true }],
  ['POST', '/api/doa', { enabled: true }],
  ['POST', '/api/console/apps/check-updates'],
  ['POST', '/api/console/apps/start', { name: 'hello_world' }],
  ['POST', '/api/console/apps/stop'],
  ['POST', '/api/control/stop'],
  ['POST', '/api/console/resume'],
];

const known = new Set([...Object.keys(ERROR_CODES)]);

it('answers every route with a result or a catalogued error, never a 500, while the daemon says odd things', async () => {
  const bad: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [method, path, body] of REQUESTS) {
      const res = await h.authed(path, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      const text = await res.text();
      // A move the daemon started is named by the daemon's UUID, never by whatever it sent.
      const uuid = res.status === 200 ? (JSON.parse(text) as { uuid?: unknown }).uuid : undefined;
      if (uuid !== undefined && !MOVE_UUID.test(String(uuid))) {
        bad.push(`${method} ${path} → a move named ${JSON.stringify(uuid).slice(0, 60)}`);
      }
      if (res.status < 400) continue;
      let code: unknown;
      try {
        code = (JSON.parse(text) as { code?: unknown }).code;
      } catch {
        code = undefined;
      }
      if (res.status >= 500 && res.status !== 502 && res.status !== 503 && res.status !== 504)
        bad.push(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
      else if (typeof code !== 'string' || !known.has(code))
        bad.push(`${method} ${path} → ${res.status} without a catalogued code: ${text.slice(0, 200)}`);
    }
  }
  expect(bad, `recent changes to the daemon's answers:\n${daemon.mutations.slice(-12).join('\n')}`).toEqual([]);
  expect(daemon.counts().mutated).toBeGreaterThan(5 * ROUNDS);
});
