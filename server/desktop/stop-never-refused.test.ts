/**
 * STOP is exempt from the per-client rate limit (server/http/route-table.ts, safetyStop): a burst
 * of looks that exhausts the limit must not keep the one action that always has to work from
 * working. The access clock is frozen, so the whole burst falls in one rate window however slow
 * the machine is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFakeClock } from '../auth/testing/fake-clock.ts';
import { loadConfig } from '../config.ts';
import { startCockpit, type Cockpit } from '../index.ts';
import { silentLog } from '../log.ts';
import { remoteRequest, TEST_TOKEN } from '../testing/cockpit-harness.ts';

let cockpit: Cockpit;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cockpit-stop-'));
  const config = loadConfig({
    env: { ROBOT_HTTPS_PORT: '0', ROBOT_TRACK_AUTOSTART: '0', ROBOT_THINKER_INTERVAL: '3600', ROBOT_RECORD_FPS: '0' },
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
  });
  cockpit = await startCockpit({ config, log: silentLog, ownerToken: TEST_TOKEN, clock: createFakeClock() });
});
afterAll(async () => {
  await cockpit.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body?: unknown) =>
  remoteRequest(`${cockpit.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    localAddress: '127.0.0.31',
  });

it('answers a STOP sent right after 20 looks in one second, and stops the move', async () => {
  const looks = [];
  // Long moves, so the accepted ones are still running when the STOP arrives.
  for (let i = 0; i < 20; i += 1) looks.push(await post('/api/control/look', { yaw: i % 2 ? 20 : -20, duration: 10 }));
  const statuses = looks.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(15);

  const stop = await post('/api/control/stop');
  expect(stop.status).toBe(200);
  const result = JSON.parse(stop.body) as { latched: boolean; movesStopped: number };
  expect(result.latched).toBe(true);
  expect(result.movesStopped).toBeGreaterThanOrEqual(1);

  // Still limited for everything else: the STOP is exempt, not a hole in the limit.
  expect((await post('/api/control/antennas', { right: 0, left: 0 })).status).toBe(429);
});

it('still refuses a STOP without a key, or from a foreign page', async () => {
  const anonymous = await remoteRequest(`${cockpit.url}/api/control/stop`, { method: 'POST', localAddress: '127.0.0.32' });
  expect(anonymous.status).toBe(401);
  const foreign = await remoteRequest(`${cockpit.url}/api/control/stop`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKEN}`, origin: 'https://attacker.example' },
    localAddress: '127.0.0.33',
  });
  // A bearer may omit Origin; one that names a foreign page is still refused.
  expect(foreign.status).toBe(403);
});
