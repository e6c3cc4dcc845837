/**
 * The robot's apps through a real cockpit and its simulator: install with live progress, start,
 * crash, restart and stop, the STOP ending the running app (and saying so), the logs' plain
 * "not available", and bad input. The crashing app dies only when the test says so.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppJob, AppsOverview } from '../../contract/apps.ts';
import { startHarness, TEST_TOKEN, until, type Harness } from '../../testing/cockpit-harness.ts';

let h: Harness;
const frames: Record<string, unknown>[] = [];
let ws: WebSocket;

beforeAll(async () => {
  // Control routes are rate-limited per client (5/s by default); this test is one busy client.
  h = await startHarness({ ROBOT_RATE_LIMIT: '1000' });
  ws = new WebSocket(`${h.url.replace('http', 'ws')}/ws?token=${TEST_TOKEN}`);
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>));
  await new Promise((resolve) => ws.once('open', resolve));
});
afterAll(async () => {
  ws.close();
  await h.close();
});

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await h.authed(path, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: res.status, json: (await res.json()) as T };
}

/** The shared poll re-read first, so a test never waits out its 2 s cadence. */
const overview = async () => {
  await h.cockpit.features.apps.refresh();
  return (await call<AppsOverview>('GET', '/api/console/apps')).json;
};
const simApp = async () => (await (await h.sim('/api/apps/current-app-status')).json()) as { state: string } | null;

async function installed(name: string): Promise<AppJob> {
  const started = await call<AppJob>('POST', '/api/console/apps/install', { name });
  expect(started.status).toBe(200);
  let job: AppJob | undefined;
  expect(
    await until(async () => {
      job = (await call<AppJob>('GET', `/api/console/apps/jobs/${started.json.id}`)).json;
      return job.status === 'done' || job.status === 'failed';
    }, 10_000),
  ).toBe(true);
  return job as AppJob;
}

beforeEach(async () => {
  await h.sim('/sim/apps', { crashAfterMs: null });
  if (h.cockpit.features.control.latch.engaged()) h.cockpit.features.control.resume('token');
  if ((await simApp()) !== null) await call('POST', '/api/console/apps/stop');
});

describe('installing', () => {
  it('streams the install progress to every dashboard, then lists the app as installed', async () => {
    const job = await installed('hello_wave');
    expect(job).toMatchObject({ command: 'install', app: 'hello_wave', status: 'done' });
    expect(job.lines.at(-1)).toBe("Job 'install' completed successfully");
    const progress = frames.filter((f) => f.type === 'app_job' && f.id === job.id) as unknown as AppJob[];
    // Progress, not only the end: frames with the lines growing one step at a time.
    const counts = progress.map((f) => f.lines.length);
    expect(counts[0]).toBe(0);
    expect(new Set(counts).size).toBeGreaterThan(3);
    expect(progress.at(-1)?.status).toBe('done');
    await until(async () => (await overview()).installed.some((a) => a.name === 'hello_wave'), 5000);
    const store = (await call<{ name: string; installed: boolean }[]>('GET', '/api/console/apps/store')).json;
    expect(store.find((a) => a.name === 'hello_wave')?.installed).toBe(true);
  });

  it('reports a failed install with its log lines', async () => {
    const job = await installed('broken_synth');
    expect(job.status).toBe('failed');
    expect(job.lines).toContain('ERROR: No matching distribution found for pyaudio==0.0.0');
    expect(job.lines.at(-1)).toBe("Job 'install' failed with error: Failed to install app 'broken_synth'");
  });

  it('refuses what is not in the store, and bad bodies, with clear 4xx', async () => {
    expect(await call('POST', '/api/console/apps/install', { name: 'no_such_app' })).toMatchObject({
      status: 404,
      json: { code: 'NOT_FOUND', error: 'the app no_such_app is not in the store' },
    });
    expect((await call('POST', '/api/console/apps/install', { name: '../etc' })).status).toBe(400);
    expect((await call('POST', '/api/console/apps/start', [])).json).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await call('POST', '/api/console/apps/start', { name: 'broken_synth' })).status).toBe(404);
  });
});

describe('running an app', () => {
  it('starts, crashes with its last error lines, restarts and stops', async () => {
    await installed('clumsy_dancer');
    await installed('hello_wave');
    const started = await call<AppsOverview>('POST', '/api/console/apps/start', { name: 'clumsy_dancer' });
    expect(started.status).toBe(200);
    expect(started.json.current).toMatchObject({ name: 'clumsy_dancer' });
    expect(await until(async () => (await overview()).current?.state === 'running', 5000)).toBe(true);
    expect(await call('POST', '/api/console/apps/start', { name: 'hello_wave' })).toMatchObject({
      status: 409,
      json: { code: 'CONFLICT', error: 'An app is already running' },
    });

    await h.sim('/sim/apps/crash', {});
    expect(await until(async () => (await overview()).current?.state === 'error', 5000)).toBe(true);
    const crashed = (await overview()).current;
    expect(crashed?.errorLines[0]).toBe('Process exited with code 1');
    expect(crashed?.errorLines.at(-1)).toBe('RuntimeError: lost the beat: no audio frames for 2 s');
    // Every dashboard heard of the crash from the one shared poll.
    expect(frames.some((f) => f.type === 'apps' && (f.current as { state?: string } | null)?.state === 'error')).toBe(
      true,
    );

    const restarted = await call<AppsOverview>('POST', '/api/console/apps/restart');
    expect(restarted.status).toBe(200);
    expect(['starting', 'running']).toContain(restarted.json.current?.state);
    const stopped = await call<AppsOverview>('POST', '/api/console/apps/stop');
    expect(stopped.json.current).toBeNull();
    expect(await simApp()).toBeNull();
    expect(await call('POST', '/api/console/apps/stop')).toMatchObject({
      status: 409,
      json: { error: 'No app is currently running' },
    });
  });

  it('keeps the startup app', async () => {
    await installed('hello_wave');
    expect((await call<AppsOverview>('PUT', '/api/console/apps/startup', { name: 'hello_wave' })).json.startupApp).toBe(
      'hello_wave',
    );
    expect((await call<AppsOverview>('PUT', '/api/console/apps/startup', { name: null })).json.startupApp).toBeNull();
    expect((await call('PUT', '/api/console/apps/startup', { name: 'broken_synth' })).status).toBe(404);
  });

  it('says plainly that the simulated robot has no app logs', async () => {
    const logs = await call('GET', '/api/console/apps/logs?app=hello_wave');
    expect(logs.json).toMatchObject({ available: false, app: 'hello_wave' });
    expect(String(logs.json.reason)).toMatch(/simulated robot keeps no journal/);
    // What was read goes into the diagnostics bundle with the app's name, next to the apps.
    const bundle = (
      await call<{ apps: { logs: { app: string }[]; installed: unknown[] } }>('GET', '/api/console/diagnostics/bundle')
    ).json;
    expect(bundle.apps.logs.map((l) => l.app)).toContain('hello_wave');
    expect(Array.isArray(bundle.apps.installed)).toBe(true);
    expect((await call('GET', '/api/console/apps/logs')).status).toBe(400);
    // Watching an app's log over the socket is acknowledged; a bad app name is refused there too.
    const before = frames.length;
    ws.send(JSON.stringify({ type: 'app_logs', app: 'hello_wave', on: true }));
    ws.send(JSON.stringify({ type: 'app_logs', app: '../etc', on: true }));
    ws.send(JSON.stringify({ type: 'app_logs', app: 'hello_wave', on: false }));
    expect(
      await until(
        () => frames.slice(before).filter((f) => f.type === 'app_logs' || f.type === 'error').length >= 3,
        5000,
      ),
    ).toBe(true);
    expect(frames.slice(before).filter((f) => f.type === 'app_logs' || f.type === 'error')).toEqual([
      { type: 'app_logs', app: 'hello_wave', on: true },
      expect.objectContaining({ type: 'error', code: 'BAD_REQUEST' }),
      { type: 'app_logs', app: 'hello_wave', on: false },
    ]);
  });
});

describe('the STOP and the app', () => {
  it('stops the running app, checks it is gone, says so, and resume does not restart it', async () => {
    await installed('hello_wave');
    await call('POST', '/api/console/apps/start', { name: 'hello_wave' });
    expect(await until(async () => (await simApp())?.state === 'running', 5000)).toBe(true);

    const stop = await call<{ app: unknown; stopped: string[] }>('POST', '/api/control/stop');
    expect(stop.status).toBe(200);
    expect(stop.json.app).toEqual({ name: 'hello_wave', stopped: true });
    expect(stop.json.stopped).toContain('app hello_wave stopped');
    expect(await simApp()).toBeNull();
    const receipt = frames.filter((f) => f.type === 'event' && f.action === 'stop').at(-1);
    expect(receipt?.text).toMatch(
      /^stop: 0 move\(s\) cancelled, speech silenced, .*app hello_wave stopped; latched until resume$/,
    );

    expect(await call('POST', '/api/console/apps/start', { name: 'hello_wave' })).toMatchObject({
      status: 409,
      json: { code: 'STOP_LATCHED' },
    });
    expect((await call('POST', '/api/console/resume')).status).toBe(200);
    const resume = frames.filter((f) => f.type === 'event' && f.action === 'resume').at(-1);
    expect(resume?.text).toBe(
      'resumed: motion allowed again; app hello_wave stays stopped (start it again from the apps page)',
    );
    expect(await simApp()).toBeNull();
  });

  it('says when no app was running', async () => {
    const stop = await call<{ app: unknown; stopped: string[] }>('POST', '/api/control/stop');
    expect(stop.json.app).toEqual({ name: null, stopped: false });
    expect(stop.json.stopped).toContain('no app running');
  });
});
