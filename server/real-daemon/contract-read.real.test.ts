/**
 * Contract suite, read side and the daemon's missing hardware: the unchanged cockpit against the
 * pinned real daemon (mockup backend, no media): state and the /ws fan-out, status and version,
 * the capability map, volume without a sound card, tracking and DoA with nothing present, the
 * move library without the Hugging Face hub, health saying the camera is absent, and the
 * daemon's app routes with nothing installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health } from '../contract/health.ts';
import type { RobotState } from '../contract/state.ts';
import { until } from '../testing/cockpit-harness.ts';
import { eventually } from '../testing/eventually.ts';
import { REAL_DAEMON_VERSION } from './pin.ts';
import { realDaemonInstall } from './testing/installed.ts';
import { cockpitSocket, DAEMON_START_MS, startRealRig, type RealRig } from './testing/real-rig.ts';

const install = realDaemonInstall('mockup');
if (!install.installed && install.required) {
  it('the real daemon is installed for CI', () => {
    throw new Error(install.failure);
  });
}

describe.skipIf(!install.installed)(`real daemon read contract (${install.note})`, () => {
  let rig: RealRig;
  const health = async () => (await (await rig.h.get('/api/health')).json()) as Health;
  const state = async () => (await (await rig.h.authed('/api/state')).json()) as RobotState;

  beforeAll(async () => {
    rig = await startRealRig(install.paths);
  }, DAEMON_START_MS + 30_000);
  afterAll(() => rig?.close());

  it('serves the daemon state in human units, with only the members the daemon has', async () => {
    const s = await state();
    expect(s.daemon).toMatchObject({ presence: 'connected', version: REAL_DAEMON_VERSION, simulated: false, state: 'running' });
    expect(s.stale).toBeUndefined();
    expect(s.motorMode).toBe('enabled');
    expect(Math.abs(s.antennas.right)).toBeGreaterThan(1);
    // The mockup reports no control-loop rate, no DoA (no microphone array) and no IMU.
    expect(s.loopHz).toBeNull();
    expect(await until(async () => (await state()).upstreamHz > 1, 10_000, 100)).toBe(true);
    expect('doa' in s).toBe(false);
    expect('imu' in s).toBe(false);
  });

  it('fans the daemon state stream out on /ws: state and health frames', async () => {
    const ws = await cockpitSocket(rig.h.url);
    try {
      expect(await until(() => ws.frames.filter((f) => f['type'] === 'state').length >= 5, 10_000, 50)).toBe(true);
      const frame = ws.frames.find((f) => f['type'] === 'state') as unknown as RobotState & { type: string };
      expect(frame.daemon.version).toBe(REAL_DAEMON_VERSION);
      expect(ws.frames.some((f) => f['type'] === 'health')).toBe(true);
    } finally {
      ws.close();
    }
  });

  it('reports the daemon status and version, in the tested range, with every capability the cockpit wants', async () => {
    expect(await until(async () => (await health()).daemon.version_check.capabilities_known, 10_000, 100)).toBe(true);
    const h = await health();
    expect(h.daemon).toMatchObject({ reachable: true, presence: 'connected', state: 'running', version: REAL_DAEMON_VERSION, loop_hz: null });
    expect(h.daemon.version_check).toMatchObject({ in_range: true, warning: null, missing: [] });
    const caps = rig.h.cockpit.robot.capabilities();
    expect(caps.version).toBe(REAL_DAEMON_VERSION);
    expect(caps.has('POST', '/api/apps/start-app/{app_name}/no-evict')).toBe(true);
    expect(caps.has('GET', '/api/daemon/robot-app-lock-status')).toBe(true);
  });

  it('health says the camera is absent', async () => {
    const h = await health();
    expect(h.camera.status).toBe('off');
    expect(h.camera.absent).toMatch(/no camera/);
  });

  it('volume without a sound card: answered at once, then a clear "not applied" receipt', async () => {
    const ws = await cockpitSocket(rig.h.url);
    try {
      const res = await rig.control('/api/control/volume', { level: 40 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ level: 40, pending: true });
      const refused = () =>
        ws.frames.find((f) => f['type'] === 'event' && f['action'] === 'volume' && String(f['text']).includes('not applied'));
      expect(await until(() => refused() !== undefined, 20_000, 50)).toBe(true);
      expect(String(refused()?.['text'])).toMatch(/volume 40 not applied: daemon refused volume \(500\)/);
    } finally {
      ws.close();
    }
  });

  it('tracking with no camera: a clear error, the engine says so, and no tracking member in the state', async () => {
    const on = await rig.h.authed('/api/tracking', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true }),
    });
    expect(on.status, `answered ${await on.clone().text()}`).toBe(502);
    expect(await on.json()).toMatchObject({ code: 'DAEMON_ERROR', error: expect.stringMatching(/unavailable/) });
    const status = (await (await rig.h.authed('/api/tracking')).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ enabled: false, detected: false, engine: `reachy-mini ${REAL_DAEMON_VERSION}: unavailable` });
    // /api/state is served from a JSON cache of a few milliseconds (server/desktop/robot-core.ts):
    // the state read just after the refusal may predate it.
    await eventually(async () => !('tracking' in (await state())), { what: 'the state without a tracking member' });
  });

  it('DoA with no microphone array: no bearing, no error', async () => {
    const res = await rig.h.authed('/api/doa');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ bearing: null });
    expect((await rig.daemonGet('/api/state/doa')).body).toBeNull();
  });

  it('the move library without the Hugging Face hub: a clear error at once, never a hang or a 500', async () => {
    const res = await rig.h.authed('/api/emotions', { signal: AbortSignal.timeout(20_000) });
    expect([502, 503]).toContain(res.status);
    expect(await res.json()).toMatchObject({ code: expect.stringMatching(/^DAEMON_/), error: expect.any(String) });
    const express = await rig.control('/api/control/express', { name: 'happy' });
    expect(express.status).not.toBe(500);
    expect(express.status).toBeGreaterThanOrEqual(400);
    expect(express.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
  });

  it('apps with nothing installed: an empty list, no current app, and stop-current-app refused', async () => {
    expect(await rig.daemonGet('/api/apps/list-available/installed')).toEqual({ status: 200, body: [] });
    expect(await rig.daemonGet('/api/apps/current-app-status')).toEqual({ status: 200, body: null });
    expect(await rig.daemonPost('/api/apps/stop-current-app')).toEqual({
      status: 400,
      body: { detail: 'No app is currently running' },
    });
    expect(await rig.daemonGet('/api/daemon/robot-app-lock-status')).toEqual({
      status: 200,
      body: { state: 'free', holder_name: null },
    });
  });
});
