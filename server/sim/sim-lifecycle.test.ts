/** Daemon stop/start/restart jobs, the 503 gate and the state streams (docs/daemon.md, "Motors and lifecycle"). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { api, ok, openWs, waitFor } from './test-helpers.ts';

let sim: SimDaemon;
beforeEach(async () => {
  sim = await startSimDaemon();
});
afterEach(() => sim.close());

async function jobDone(id: string): Promise<Record<string, unknown>> {
  return waitFor(async () => {
    const info = await ok(sim, 'GET', `/api/apps/job-status/${id}`);
    return info.status === 'done' ? info : null;
  }, 15_000);
}

describe('stop and start', () => {
  it('stop → 503 Backend not running everywhere the backend is needed, running stays []; start brings it back', async () => {
    const { job_id } = await ok<{ job_id: string }>(sim, 'POST', '/api/daemon/stop?goto_sleep=false');
    expect(await jobDone(job_id)).toEqual({
      command: 'daemon-stop',
      status: 'done',
      logs: ["Job 'daemon-stop' completed successfully"],
    });
    const status = await ok(sim, 'GET', '/api/daemon/status');
    expect(status).toMatchObject({ state: 'stopped', backend_status: null });
    for (const [method, path] of [
      ['GET', '/api/state/full'],
      ['GET', '/api/motors/status'],
      ['POST', '/api/move/goto'],
      ['POST', '/api/media/play_sound'],
    ] as const) {
      const r = await api(sim, method, path, method === 'POST' ? { duration: 1 } : undefined);
      expect(r).toMatchObject({ status: 503, json: { detail: 'Backend not running' } });
    }
    expect(await ok(sim, 'GET', '/api/move/running')).toEqual([]);
    await expect(openWs(sim, '/api/state/ws/full')).rejects.toThrow(/403/);

    const started = await ok<{ job_id: string }>(sim, 'POST', '/api/daemon/start?wake_up=false');
    await jobDone(started.job_id);
    expect(await ok(sim, 'GET', '/api/daemon/status')).toMatchObject({
      state: 'running',
      mockup_sim_enabled: true,
      backend_status: { motor_control_mode: 'enabled', error: null },
    });
    expect((await api(sim, 'GET', '/api/state/full')).status).toBe(200);
  });

  it('stop with goto_sleep runs the sleep sequence first; a second job meanwhile is 409 busy', async () => {
    const { job_id } = await ok<{ job_id: string }>(sim, 'POST', '/api/daemon/stop?goto_sleep=true');
    expect(await api(sim, 'POST', '/api/daemon/restart')).toMatchObject({
      status: 409,
      json: { detail: 'Daemon is busy.' },
    });
    expect((await ok(sim, 'GET', '/api/daemon/status')).state).toBe('stopping');
    expect((await ok(sim, 'GET', `/api/apps/job-status/${job_id}`)).status).toBe('in_progress');
    await jobDone(job_id);
    expect(sim.counters().soundsPlayed.map((s) => s.file)).toContain('go_sleep.wav');
    const { job_id: start } = await ok<{ job_id: string }>(sim, 'POST', '/api/daemon/start?wake_up=true');
    await jobDone(start);
    expect(sim.counters().soundsPlayed.map((s) => s.file)).toContain('wake_up.wav');
    expect((await ok<{ pitch: number }>(sim, 'GET', '/api/state/present_head_pose')).pitch).toBeCloseTo(0, 4);
  });

  it('unknown job ids are 404', async () => {
    expect(await api(sim, 'GET', '/api/apps/job-status/nope')).toMatchObject({
      status: 404,
      json: { detail: 'Job ID not found' },
    });
  });
});

describe('state WebSocket', () => {
  // The frequency itself is a rate: bench/ measures rates, tests do not (a busy machine skews them).
  it('delivers FullState frames with control_mode', async () => {
    const s = await openWs(sim, '/api/state/ws/full?frequency=20&with_head_joints=true');
    await waitFor(() => s.messages.length >= 3);
    s.ws.close();
    const frame = s.messages[0] as Record<string, unknown>;
    expect(Object.keys(frame)).toEqual([
      'control_mode',
      'head_pose',
      'head_joints',
      'body_yaw',
      'antennas_position',
      'timestamp',
      'passive_joints',
      'doa',
      'imu',
    ]);
    expect(frame.control_mode).toBe('enabled');
    expect(frame.head_joints).toHaveLength(7);
  });

  it('refuses frequencies outside 1..50 and bad flags with close code 1008', async () => {
    for (const q of ['frequency=0', 'frequency=-5', 'frequency=100', 'frequency=abc', 'with_doa=maybe']) {
      const s = await openWs(sim, `/api/state/ws/full?${q}`);
      expect((await s.closed).code).toBe(1008);
      expect(s.messages).toEqual([]);
    }
    await waitFor(() => sim.counters().stateWsClients === 0);
  });

  it('is dropped abruptly (no close frame) by a restart, and the daemon comes back running', async () => {
    const s = await openWs(sim, '/api/state/ws/full');
    await waitFor(() => sim.counters().stateWsClients === 1);
    const { job_id } = await ok<{ job_id: string }>(sim, 'POST', '/api/daemon/restart');
    expect((await s.closed).code).toBe(1006);
    await jobDone(job_id);
    expect((await ok(sim, 'GET', '/api/daemon/status')).state).toBe('running');
    await waitFor(() => sim.counters().stateWsClients === 0);
  });

  it('unknown WebSocket paths are refused with 403 at the upgrade', async () => {
    await expect(openWs(sim, '/api/nope/ws')).rejects.toThrow(/403/);
    await expect(openWs(sim, '/ws/sdk')).rejects.toThrow(/403/);
  });
});
