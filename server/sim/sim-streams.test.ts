/** Move updates and streamed set_target WebSockets (docs/daemon.md, "The protocol as the cockpit uses it"). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimDaemon, type SimDaemon } from './index.ts';
import { ok, openWs, waitFor } from './test-helpers.ts';

let sim: SimDaemon;
beforeEach(async () => {
  sim = await startSimDaemon();
});
afterEach(() => sim.close());

describe('updates WebSocket', () => {
  it('reports started/completed, cancelled on stop, and failed when the backend stops mid-move', async () => {
    const s = await openWs(sim, '/api/move/ws/updates');
    expect(sim.counters().updatesWsClients).toBe(1);
    const a = await ok<{ uuid: string }>(sim, 'POST', '/api/move/goto', { head_pose: { yaw: 0.1 }, duration: 0.2 });
    await waitFor(() => s.messages.length >= 2);
    expect(s.messages).toEqual([
      { type: 'move_started', uuid: a.uuid, details: '' },
      { type: 'move_completed', uuid: a.uuid, details: '' },
    ]);

    const b = await ok<{ uuid: string }>(sim, 'POST', '/api/move/goto', { head_pose: { yaw: 0.2 }, duration: 5 });
    await waitFor(() => s.messages.length >= 3);
    await ok(sim, 'POST', '/api/move/stop', { uuid: b.uuid });
    await waitFor(() => s.messages.length >= 4);
    expect(s.messages[3]).toEqual({ type: 'move_cancelled', uuid: b.uuid, details: '' });

    const c = await ok<{ uuid: string }>(sim, 'POST', '/api/move/goto', { head_pose: { yaw: 0.2 }, duration: 5 });
    await waitFor(() => s.messages.length >= 5);
    await ok(sim, 'POST', '/sim/backend', { action: 'stop' });
    await waitFor(() => s.messages.length >= 6);
    expect(s.messages[5]).toEqual({ type: 'move_failed', uuid: c.uuid, details: 'Backend not running' });
    // The listener list outlives the backend, as the real module-global list does.
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    s.ws.close();
    await s.closed;
    await waitFor(() => sim.counters().updatesWsClients === 0);
  });

  it('reports completion even for a goto that does not move', async () => {
    const s = await openWs(sim, '/api/move/ws/updates');
    const { uuid } = await ok<{ uuid: string }>(sim, 'POST', '/api/move/goto', { duration: -1 });
    await waitFor(() => s.messages.length >= 2);
    expect(s.messages).toEqual([
      { type: 'move_started', uuid, details: '' },
      { type: 'move_completed', uuid, details: '' },
    ]);
  });
});

describe('set_target WebSocket', () => {
  it('applies targets silently and answers bad frames with pydantic text', async () => {
    const s = await openWs(sim, '/api/move/ws/set_target');
    s.ws.send(JSON.stringify({ target_head_pose: { yaw: 0.25 }, target_antennas: [0.2, -0.2] }));
    await waitFor(
      async () => Math.abs((await ok<{ yaw: number }>(sim, 'GET', '/api/state/present_head_pose')).yaw - 0.25) < 1e-9,
    );
    expect(s.messages).toEqual([]);
    s.ws.send(JSON.stringify({ target_antennas: [1, 2, 3] }));
    s.ws.send('{bad');
    await waitFor(() => s.messages.length >= 2);
    const [tooLong, invalid] = s.messages as Array<{ status: string; detail: string }>;
    expect(tooLong?.status).toBe('error');
    expect(tooLong?.detail).toMatch(
      /^1 validation error for FullBodyTarget\ntarget_antennas\n {2}Tuple should have at most 2 items after validation, not 3/,
    );
    expect(invalid?.detail).toMatch(/^1 validation error for FullBodyTarget\n {2}Invalid JSON/);
    expect(sim.counters().targetsApplied).toBe(1);
  });

  it('drops targets silently while a move runs', async () => {
    const s = await openWs(sim, '/api/move/ws/set_target');
    await ok(sim, 'POST', '/api/move/goto', { antennas: [0.5, -0.5], duration: 1 });
    s.ws.send(JSON.stringify({ target_head_pose: { yaw: 0.3 } }));
    // The barrier: once the move is over, a later target on the same socket is applied. It is
    // the first one applied, so the one sent during the move was dropped.
    await waitFor(async () => (await ok<unknown[]>(sim, 'GET', '/api/move/running')).length === 0);
    s.ws.send(JSON.stringify({ target_head_pose: { yaw: 0.1 } }));
    await waitFor(() => sim.counters().targetsApplied > 0);
    expect(sim.counters().targetsApplied).toBe(1);
    expect(s.messages).toEqual([]);
  });

  it('a socket opened before a restart stays open but its targets go nowhere', async () => {
    const s = await openWs(sim, '/api/move/ws/set_target');
    await ok(sim, 'POST', '/sim/backend', { action: 'restart' });
    await waitFor(async () => (await ok(sim, 'GET', '/api/daemon/status')).state === 'running');
    s.ws.send(JSON.stringify({ target_head_pose: { yaw: 0.3 } }));
    expect(s.ws.readyState).toBe(s.ws.OPEN);
    // The barrier: a fresh socket's target is applied, and it is the only one that was.
    const applied = sim.counters().targetsApplied;
    const fresh = await openWs(sim, '/api/move/ws/set_target');
    fresh.ws.send(JSON.stringify({ target_head_pose: { yaw: 0.2 } }));
    await waitFor(
      async () => Math.abs((await ok<{ yaw: number }>(sim, 'GET', '/api/state/present_head_pose')).yaw - 0.2) < 1e-9,
    );
    expect(sim.counters().targetsApplied).toBe(applied + 1);
  });
});
