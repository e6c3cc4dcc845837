/** The /sim/* controls and fault injection (README-sim.md). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { api, ok, waitFor } from './test-helpers.ts';

let sim: SimDaemon;
beforeEach(async () => {
  sim = await startSimDaemon();
});
afterEach(() => sim.close());

describe('/sim controls', () => {
  it('reports the simulated world and counts only daemon API requests', async () => {
    const status = await ok(sim, 'GET', '/sim/status');
    expect(status).toMatchObject({
      backend: { state: 'running', ready: true },
      latencyMs: 0,
      hang: false,
      realistic: false,
      face: { present: false },
      speaker: { bearing: 0, speaking: false },
      motorMode: 'enabled',
      runningMoves: 0,
    });
    expect(sim.counters().httpRequests).toBe(0);
    await ok(sim, 'GET', '/api/daemon/status');
    await api(sim, 'GET', '/api/does-not-exist');
    expect(sim.counters().httpRequests).toBe(2);
    expect((await ok<{ counters: { httpRequests: number } }>(sim, 'GET', '/sim/status')).counters.httpRequests).toBe(2);
  });

  it('sets the face and the speaker, and answers bad input with 400 {error}', async () => {
    expect(await ok(sim, 'POST', '/sim/face', { yaw: 15, pitch: -5 })).toMatchObject({
      face: { present: true, yaw: 15, pitch: -5 },
    });
    expect(await ok(sim, 'POST', '/sim/face', { present: false })).toMatchObject({ face: { present: false } });
    expect(await ok(sim, 'POST', '/sim/speaker', { speaking: true })).toMatchObject({
      speaker: { bearing: 0, speaking: true },
    });
    expect(await api(sim, 'POST', '/sim/face', { yaw: 'left' })).toMatchObject({
      status: 400,
      json: { error: 'yaw must be a number in -180..180' },
    });
    expect(await api(sim, 'POST', '/sim/backend', { action: 'explode' })).toMatchObject({ status: 400 });
    expect(await api(sim, 'POST', '/sim/latency', 'nope')).toMatchObject({
      status: 400,
      json: { error: 'body is not valid JSON' },
    });
  });

  it('adds latency to daemon API answers but not to /sim', async () => {
    await ok(sim, 'POST', '/sim/latency', { ms: 300 });
    const t0 = Date.now();
    await ok(sim, 'GET', '/api/daemon/status');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
  });

  it('hangs daemon API requests without answering, until switched off', async () => {
    await ok(sim, 'POST', '/sim/hang', { on: true });
    await expect(fetch(`${sim.url}/api/daemon/status`, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(sim.counters().httpRequests).toBe(1);
    await ok(sim, 'POST', '/sim/hang', { on: false });
    expect((await api(sim, 'GET', '/api/daemon/status')).status).toBe(200);
  });

  it('close() also ends requests and upgrades held by the hang fault', async () => {
    await ok(sim, 'POST', '/sim/hang', { on: true });
    const pending = fetch(`${sim.url}/api/state/full`).catch(() => 'ended');
    const upgrade = new WebSocket(`${sim.url.replace('http', 'ws')}/api/state/ws/full`);
    const upgradeEnded = new Promise((resolve) => upgrade.once('error', resolve).once('close', resolve));
    await waitFor(() => sim.counters().httpRequests === 1);
    await sim.close();
    expect(await pending).toBe('ended');
    await upgradeEnded;
  });

  it('stops the backend abruptly and restarts it through "starting"', async () => {
    expect(await ok(sim, 'POST', '/sim/backend', { action: 'stop' })).toMatchObject({
      backend: { state: 'stopped', ready: false },
    });
    expect((await api(sim, 'GET', '/api/state/full')).status).toBe(503);
    await ok(sim, 'POST', '/sim/backend', { action: 'start' });
    await waitFor(async () => (await ok(sim, 'GET', '/api/daemon/status')).state === 'running');
    const restarting = await ok<{ backend: { state: string } }>(sim, 'POST', '/sim/backend', { action: 'restart' });
    expect(restarting.backend.state).toBe('starting');
    expect((await ok(sim, 'GET', '/api/daemon/status')).state).toBe('starting');
    expect((await api(sim, 'GET', '/api/state/full')).status).toBe(503);
    await waitFor(async () => (await ok(sim, 'GET', '/api/daemon/status')).state === 'running');
  });

  it('close() is idempotent and frees the port', async () => {
    const other = await startSimDaemon();
    await Promise.all([other.close(), other.close()]);
    await other.close();
    await expect(fetch(`${other.url}/api/daemon/status`)).rejects.toThrow();
  });
});
