/**
 * GET /api/console/health/history and the `health_sample` frames inside a real cockpit (in-process
 * simulator, port 0) on a clock the test moves: a control request that reached the daemon shows
 * as control latency in the next sample, and each sample reaches /ws as it is taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import type { HealthHistoryView, HealthSampleFrame } from '../../contract/health.ts';
import { startCockpit, type Cockpit } from '../../index.ts';
import { silentLog } from '../../log.ts';
import { openSocket, TEST_TOKEN } from '../../testing/cockpit-harness.ts';
import { eventually } from '../../testing/eventually.ts';
import { createManualClock } from '../../testing/manual-clock.ts';

const clock = createManualClock();
let cockpit: Cockpit;
let dataDir: string;
const authed = (path: string, init: RequestInit = {}) =>
  fetch(`${cockpit.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'health-history-'));
  const config = loadConfig({
    env: {
      ROBOT_HTTPS_PORT: '0',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_THINKER_INTERVAL: '3600',
      ROBOT_RECORD_MINUTES: '0',
    },
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
  });
  cockpit = await startCockpit({ config, log: silentLog, ownerToken: TEST_TOKEN, clock });
});
afterAll(async () => {
  await cockpit.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('needs a key', async () => {
  const res = await fetch(`${cockpit.url}/api/console/health/history`, { headers: { 'x-forwarded-for': '10.0.0.9' } });
  expect(res.status).toBe(401);
  expect(await res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
});

it('keeps samples on the clock, with the control latency of a look, and sends each on /ws', async () => {
  const empty = (await (await authed('/api/console/health/history')).json()) as HealthHistoryView;
  expect(empty).toEqual({ everyMs: 5000, windowMs: 600_000, samples: [] });

  await eventually(async () => (await authed('/api/state')).status === 200, { timeoutMs: 10_000 });
  const look = await authed('/api/control/look', { method: 'POST', body: JSON.stringify({ yaw: 5, duration: 1 }) });
  expect(look.status).toBe(200);

  const { ws } = await openSocket(`${cockpit.url.replace('http', 'ws')}/ws?token=${TEST_TOKEN}`);
  const frames: HealthSampleFrame[] = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { type: string };
    if (frame.type === 'health_sample') frames.push(frame as HealthSampleFrame);
  });
  clock.advance(5000);
  const first = (await (await authed('/api/console/health/history')).json()) as HealthHistoryView;
  expect(first.samples).toHaveLength(1);
  const [sample] = first.samples;
  expect(sample).toMatchObject({
    t: clock.now(),
    presence: 'connected',
    control: { count: 1, p50Ms: expect.any(Number), maxMs: expect.any(Number) },
    cpuPercent: expect.any(Number),
    streamHz: expect.any(Number),
    cameraFps: expect.any(Number),
  });
  await eventually(() => frames.length === 1);
  expect(frames[0]?.sample).toEqual(sample);

  // Ten minutes later the first sample has left the window the route answers.
  clock.advance(600_000);
  const later = (await (await authed('/api/console/health/history')).json()) as HealthHistoryView;
  expect(later.samples).toHaveLength(120);
  expect(later.samples[0]?.t).toBe(sample!.t + 5000);
  expect(later.samples.at(-1)?.control).toEqual({ count: 0, p50Ms: null, maxMs: null });
  ws.close();
});
