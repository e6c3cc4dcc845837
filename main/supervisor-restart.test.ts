/**
 * The restart loop around a real server process: `main/serve.ts` forked under createSupervisor,
 * killed with SIGKILL (nothing of its own runs: no graceful stop, no flush), is started again
 * after a delay under 2 s and answers /api/health, with the owner token and a model setting
 * written before the kill still there. The loop keeps a spare, as `npm start` does: the test
 * waits until it stands by, so the takeover path is the one exercised. The wall-clock time of the whole restart is measured in
 * bench/restart.ts, not asserted here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLog } from '../server/index.ts';
import { forkServe, type CockpitReady } from './cockpit-child.ts';
import { createSupervisor, type Supervisor, type SupervisorState } from './supervisor.ts';

let dataDir: string;
let supervisor: Supervisor<CockpitReady>;
const states: SupervisorState<CockpitReady>[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cockpit-restart-'));
  supervisor = createSupervisor({
    log: createLog({ sink: () => {} }),
    spare: true,
    start: forkServe({
      args: ['--sim', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
      env: {
        ...process.env,
        ROBOT_HTTPS_PORT: '0',
        ROBOT_CAMERA: 'off',
        ROBOT_TRACK_AUTOSTART: '0',
        ROBOT_LOG_LEVEL: 'error',
      },
      execArgv: ['--import', 'tsx'],
      stdio: 'ignore',
    }),
  });
  supervisor.onState((state) => states.push(state));
});

afterAll(async () => {
  await supervisor.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The next state of the given kind (a bounded wait on the supervisor's own signal). */
function next<K extends SupervisorState<CockpitReady>['kind']>(kind: K, timeoutMs = 30_000) {
  return new Promise<Extract<SupervisorState<CockpitReady>, { kind: K }>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${kind}" state within ${timeoutMs} ms`)), timeoutMs);
    const off = supervisor.onState((state) => {
      if (state.kind !== kind) return;
      clearTimeout(timer);
      off();
      resolve(state as Extract<SupervisorState<CockpitReady>, { kind: K }>);
    });
  });
}

function api(base: string, token: string, path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: base },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

it('restarts a SIGKILLed server in under 2 s, and nothing stored is lost', async () => {
  const first = (await supervisor.start()).a;
  if (!first) throw new Error('the desktop server did not report its address');
  const token = readFileSync(join(dataDir, 'owner-token'), 'utf8').trim();
  const setting = { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'kept-across-crashes' };
  expect((await api(first.url, token, '/api/console/agent/settings', { method: 'PUT', body: setting })).status).toBe(
    200,
  );

  await expect.poll(() => supervisor.spareStanding(), { timeout: 60_000, interval: 100 }).toBe(true);
  const running = supervisor.state();
  if (running.kind !== 'running') throw new Error(`expected a running server, got ${running.kind}`);
  const restarting = next('restarting');
  const back = next('running');
  process.kill(running.pid as number, 'SIGKILL');

  const scheduled = await restarting;
  expect(scheduled.exit).toEqual({ pid: running.pid, code: null, signal: 'SIGKILL' });
  expect(scheduled.delayMs).toBeLessThan(2000);
  const again = await back;
  expect(again.pid).not.toBe(running.pid);
  expect(again.restarts).toBe(1);
  const url = again.info.a?.url as string;
  expect((await fetch(`${url}/api/health`)).status).toBe(200);
  expect(readFileSync(join(dataDir, 'owner-token'), 'utf8').trim()).toBe(token);
  const kept = await api(url, token, '/api/console/agent/settings');
  expect(kept.status).toBe(200);
  expect(await kept.json()).toMatchObject({ provider: 'openai', model: 'kept-across-crashes' });
}, 90_000);
