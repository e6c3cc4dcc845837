/**
 * The simulator's app store and app runner against its own HTTP and WebSocket API: the shapes
 * of reachy_mini's routers/apps.py, the job socket's frames, one app at a time, the crash on a
 * clock the test holds, and the robot-care faults (motor error, silent microphone).
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { api, ok, openWs, waitFor } from './test-helpers.ts';

let sim: SimDaemon;
beforeAll(async () => {
  sim = await startSimDaemon();
});
afterAll(() => sim.close());

const store = (name: string) => ({ name, source_kind: 'hf_space', description: '', url: null, extra: {} });

async function jobDone(id: string): Promise<{ status: string; logs: string[] }> {
  return waitFor(async () => {
    const info = await ok<{ status: string; logs: string[] }>(sim, 'GET', `/api/apps/job-status/${id}`);
    return info.status === 'done' || info.status === 'failed' ? info : null;
  });
}

async function install(name: string): Promise<void> {
  const { job_id } = await ok<{ job_id: string }>(sim, 'POST', '/api/apps/install', store(name));
  expect((await jobDone(job_id)).status).toBe('done');
}

async function stopAny(): Promise<void> {
  if ((await ok<unknown>(sim, 'GET', '/api/apps/current-app-status')) !== null)
    await api(sim, 'POST', '/api/apps/stop-current-app');
}

beforeEach(async () => {
  await stopAny();
  await ok(sim, 'POST', '/sim/apps', { crashAfterMs: null });
});

describe('the simulated app store', () => {
  it('lists the store, installs with progress on the job socket and lists the app as installed', async () => {
    const storeList = await ok<{ name: string; source_kind: string }[]>(
      sim,
      'GET',
      '/api/apps/list-available/hf_space',
    );
    expect(storeList.map((a) => a.name)).toEqual(['hello_wave', 'clumsy_dancer', 'broken_synth']);
    expect(await ok(sim, 'GET', '/api/apps/list-available/local')).toEqual([]);
    expect((await api(sim, 'GET', '/api/apps/list-available/nowhere')).status).toBe(422);
    expect((await api(sim, 'POST', '/api/apps/install', { name: 'x', source_kind: 'installed' })).json).toEqual({
      detail: "source_kind 'installed' is not installable via the API",
    });

    const { job_id } = await ok<{ job_id: string }>(sim, 'POST', '/api/apps/install', store('hello_wave'));
    const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/api/apps/ws/apps-manager/${job_id}`);
    const frames: string[] = [];
    ws.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
    await new Promise((resolve) => ws.once('close', resolve));
    const infos = frames
      .filter((f) => f.startsWith('{'))
      .map((f) => JSON.parse(f) as { status: string; logs: string[] });
    const lines = frames.filter((f) => !f.startsWith('{'));
    expect(lines).toEqual([
      'Downloading hello_wave from pollen-sim/hello_wave',
      'Installing dependencies',
      'Registering entry point hello_wave',
      'Successfully installed hello_wave',
      "Job 'install' completed successfully",
    ]);
    expect(infos.length).toBeGreaterThan(1);
    expect(infos.at(-1)).toMatchObject({ command: 'install', status: 'done' });
    const installed = await ok<{ name: string; source_kind: string }[]>(
      sim,
      'GET',
      '/api/apps/list-available/installed',
    );
    expect(installed).toMatchObject([{ name: 'hello_wave', source_kind: 'installed' }]);
  });

  it('fails an install with the pip lines and the job failure', async () => {
    const { job_id } = await ok<{ job_id: string }>(sim, 'POST', '/api/apps/install', store('broken_synth'));
    const info = await jobDone(job_id);
    expect(info.status).toBe('failed');
    expect(info.logs.slice(-2)).toEqual([
      'ERROR: No matching distribution found for pyaudio==0.0.0',
      "Job 'install' failed with error: Failed to install app 'broken_synth'",
    ]);
    const unknownJob = new WebSocket(`${sim.url.replace('http', 'ws')}/api/apps/ws/apps-manager/nope`);
    const first = await new Promise<string>((resolve) =>
      unknownJob.once('message', (d: Buffer) => resolve(d.toString())),
    );
    expect(JSON.parse(first)).toEqual({ error: 'Job ID not found' });
  });

  it('runs one app at a time; the crash keeps the slot until stop or restart', async () => {
    await install('clumsy_dancer');
    await install('hello_wave');
    const started = await ok(sim, 'POST', '/api/apps/start-app/clumsy_dancer');
    expect(started).toEqual({
      info: { name: 'clumsy_dancer', source_kind: 'installed', description: '', url: null, extra: {} },
      state: 'starting',
      error: null,
    });
    await waitFor(
      async () => (await ok<{ state: string }>(sim, 'GET', '/api/apps/current-app-status')).state === 'running',
    );
    expect(await ok(sim, 'GET', '/api/daemon/robot-app-lock-status')).toEqual({
      state: 'local_app',
      holder_name: 'clumsy_dancer',
    });
    expect((await api(sim, 'POST', '/api/apps/start-app/hello_wave')).json).toEqual({
      detail: 'An app is already running',
    });

    await ok(sim, 'POST', '/sim/apps/crash');
    const crashed = await ok<{ state: string; error: string }>(sim, 'GET', '/api/apps/current-app-status');
    expect(crashed.state).toBe('error');
    expect(crashed.error).toMatch(/^Process exited with code 1\nTraceback/);
    expect(crashed.error).toContain('RuntimeError: lost the beat');
    expect(await ok(sim, 'GET', '/api/daemon/robot-app-lock-status')).toEqual({ state: 'free', holder_name: null });
    expect((await api(sim, 'POST', '/api/apps/start-app/hello_wave/no-evict')).status).toBe(400);

    expect(await ok(sim, 'POST', '/api/apps/restart-current-app')).toMatchObject({ state: 'starting' });
    expect((await api(sim, 'POST', '/api/apps/stop-current-app')).json).toBeNull();
    expect(await ok(sim, 'GET', '/api/apps/current-app-status')).toBeNull();
    expect((await api(sim, 'POST', '/api/apps/stop-current-app')).json).toEqual({
      detail: 'No app is currently running',
    });
    // An app that is not installed has no entry point: the real daemon lets the ValueError out.
    expect((await api(sim, 'POST', '/api/apps/start-app/nothing')).status).toBe(500);
  });

  it('crashes the dancer on its own clock when one is set', async () => {
    await install('clumsy_dancer');
    await ok(sim, 'POST', '/sim/apps', { crashAfterMs: 0 });
    await ok(sim, 'POST', '/api/apps/start-app/clumsy_dancer');
    await waitFor(
      async () => (await ok<{ state: string }>(sim, 'GET', '/api/apps/current-app-status')).state === 'error',
    );
  });

  it('keeps the startup app, refusing one that is not installed, and reports updates', async () => {
    await install('hello_wave');
    expect((await api(sim, 'PUT', '/api/apps/startup-app', { startup_app: 'broken_synth' })).json).toEqual({
      detail: "App 'broken_synth' is not installed",
    });
    expect(await ok(sim, 'PUT', '/api/apps/startup-app', { startup_app: 'hello_wave' })).toEqual({
      startup_app: 'hello_wave',
    });
    expect(await ok(sim, 'GET', '/api/apps/startup-app')).toEqual({ startup_app: 'hello_wave' });
    await ok(sim, 'POST', '/sim/apps', { publish: 'hello_wave' });
    const updates = await ok<{ apps_with_updates: { app_name: string }[] }>(sim, 'GET', '/api/apps/check-updates');
    expect(updates.apps_with_updates.map((u) => u.app_name)).toEqual(['hello_wave']);
    const { job_id } = await ok<{ job_id: string }>(sim, 'POST', '/api/apps/update/hello_wave');
    expect((await jobDone(job_id)).status).toBe('done');
    expect(
      (await ok<{ apps_with_updates: unknown[] }>(sim, 'GET', '/api/apps/check-updates')).apps_with_updates,
    ).toEqual([]);
    const removal = await ok<{ job_id: string }>(sim, 'POST', '/api/apps/remove/hello_wave');
    expect((await jobDone(removal.job_id)).status).toBe('done');
    expect(await ok(sim, 'GET', '/api/apps/startup-app')).toEqual({ startup_app: null });
  });
});

describe("the Wireless daemon's log stream", () => {
  it('exists only on a Wireless build, and sends the app runner lines as journal lines', async () => {
    await expect(openWs(sim, '/logs/ws/daemon')).rejects.toThrow('upgrade refused: 403');
    await ok(sim, 'POST', '/sim/wireless', { on: true });
    try {
      expect((await ok<{ wireless_version: boolean }>(sim, 'GET', '/api/daemon/status')).wireless_version).toBe(true);
      await install('clumsy_dancer');
      const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/logs/ws/daemon`);
      const lines: string[] = [];
      ws.on('message', (data: Buffer) => lines.push(data.toString('utf8')));
      await new Promise((resolve) => ws.once('open', resolve));
      // The stream starts with the journal's last lines (earlier tests' runs): count from here.
      await waitFor(() => lines.length > 0);
      const backlog = lines.length;
      await ok(sim, 'POST', '/api/apps/start-app/clumsy_dancer');
      await waitFor(() => lines.slice(backlog).some((l) => l.endsWith('clumsy_dancer: listening for a beat')));
      await ok(sim, 'POST', '/sim/apps/crash');
      await waitFor(() => lines.slice(backlog).some((l) => l.includes('ERROR - App clumsy_dancer exited')));
      ws.close();
      const journal = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000 reachy-mini reachy-mini-daemon\[\d+\]: /;
      const records = lines.slice(backlog).filter((l) => l !== '');
      expect(records.every((l) => journal.test(l))).toBe(true);
      const texts = records.map((l) => l.replace(journal, ''));
      expect(texts).toContain('reachy_mini.apps.manager.runner - INFO - Starting app clumsy_dancer');
      expect(
        texts.some((t) => t.startsWith('reachy_mini.apps.manager.runner - WARNING - RuntimeError: lost the beat')),
      ).toBe(true);
      // The crash record's own lines follow it without the logger prefix, as journald splits them.
      const crash = texts.findIndex((t) =>
        t.startsWith('reachy_mini.apps.manager.runner - ERROR - App clumsy_dancer exited with code 1'),
      );
      expect(crash).toBeGreaterThan(0);
      expect(texts[crash + 1]).toMatch(/^Traceback/);
    } finally {
      await ok(sim, 'POST', '/sim/wireless', { on: false });
    }
  });
});

describe('robot-care faults', () => {
  it('reports an injected motor error in the daemon status until cleared', async () => {
    await ok(sim, 'POST', '/sim/motors', { error: 'Overload on motor 3 (stewart_3)' });
    const status = await ok<{ backend_status: { error: string | null } }>(sim, 'GET', '/api/daemon/status');
    expect(status.backend_status.error).toBe('Overload on motor 3 (stewart_3)');
    await ok(sim, 'POST', '/sim/motors', { error: null });
    expect(
      (await ok<{ backend_status: { error: null } }>(sim, 'GET', '/api/daemon/status')).backend_status.error,
    ).toBeNull();
    expect((await api(sim, 'POST', '/sim/motors', { error: 3 })).status).toBe(400);
  });

  it('switches the silent microphone fault on and off', async () => {
    const on = await ok<{ microphone: { silent: boolean } }>(sim, 'POST', '/sim/microphone/silent', { on: true });
    expect(on.microphone.silent).toBe(true);
    const off = await ok<{ microphone: { silent: boolean } }>(sim, 'POST', '/sim/microphone/silent', { on: false });
    expect(off.microphone.silent).toBe(false);
  });
});
