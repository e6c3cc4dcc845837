import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Health } from '../contract/health.ts';
import type { RobotState } from '../contract/state.ts';
import {
  openSocket,
  remoteRequest,
  startHarness,
  TEST_TOKEN,
  until,
  type Harness,
} from '../testing/cockpit-harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await until(async () => (await h.authed('/api/state')).status === 200, 5000);
});
afterAll(() => h.close());

const wsUrl = (path: string) => h.url.replace('http', 'ws') + path;

describe("the desktop server's read side against the simulator", () => {
  it('reports health publicly, with daemon, camera, pressure and stream', async () => {
    // A rate is measured once frames flow; the rate itself is a bench figure.
    await until(async () => ((await (await h.get('/api/health')).json()) as Health).stream.hz > 0, 5000);
    const res = await h.get('/api/health');
    expect(res.status).toBe(200);
    const health = (await res.json()) as Health;
    expect(health.ok).toBe(true);
    expect(health.daemon).toMatchObject({ reachable: true, presence: 'connected', simulated: true, state: 'running' });
    expect(health.stream.connected).toBe(true);
    expect(health.stream.hz).toBeGreaterThan(0);
    expect(typeof health.camera.fps).toBe('number');
    expect(health.pressure.fd_limit).toBeGreaterThan(0);
    expect(health.pressure.close_wait).toBe(0);
    // The simulator runs in this process: the figures are the cockpit's own, and say so.
    expect(health.pressure).toMatchObject({ source: 'cockpit', pid: process.pid, cockpit_close_wait: 0 });
    // Version awareness: the simulator's 1.10.0.dev0 is inside the tested range, its route list read.
    await until(
      async () => ((await (await h.get('/api/health')).json()) as Health).daemon.version_check.capabilities_known,
      5000,
    );
    const check = ((await (await h.get('/api/health')).json()) as Health).daemon.version_check;
    expect(check).toMatchObject({ in_range: true, warning: null, capabilities_known: true, tested: { max: '1.13.0' } });
    expect(h.cockpit.robot.capabilities().has('GET', '/api/state/full')).toBe(true);
  });

  it('serves the state in degrees and millimetres to the owner only', async () => {
    const anonymous = await remoteRequest(`${h.url}/api/state`);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(await (await h.get('/api/state', { authorization: 'Bearer wrong' })).json()).toMatchObject({
      code: 'AUTH_REQUIRED',
    });
    // A loopback caller (a persona on the robot) may read without a key.
    expect((await h.get('/api/state')).status).toBe(200);
    const state = (await (await h.authed('/api/state')).json()) as RobotState;
    expect(state.daemon).toMatchObject({ presence: 'connected', simulated: true });
    expect(['enabled', 'disabled', 'gravity_compensation']).toContain(state.motorMode);
    expect(Math.abs(state.antennas.right)).toBeGreaterThan(1); // ±10° awake, ±175° asleep: degrees, not radians
    // A flowing stream has a measured rate; the rate itself is a bench figure (5 Hz here: no dashboard is open).
    expect(state.upstreamHz).toBeGreaterThan(0);
    // Like the real mockup daemon, the simulator reports no control-loop rate of its own.
    expect(state.loopHz).toBeNull();
  });

  it('answers telemetry and the move library', async () => {
    const telemetry = (await (await h.authed('/api/telemetry')).json()) as { state: RobotState; camera: unknown };
    expect(telemetry.camera).toBeDefined();
    const lib = (await (await h.authed('/api/emotions')).json()) as {
      moves: { name: string }[];
      families: Record<string, string[]>;
    };
    expect(lib.moves.length).toBe(85 + 19);
    expect(lib.families['joy']).toContain('laughing1');
    expect(lib.families['dance']).toContain('chin_lead');
  });

  it('answers JSON 404s under /api and the shell elsewhere', async () => {
    const res = await h.authed('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  // The rate (ROBOT_WS_HZ) is kept by startTicker (server/http/broadcast-ticker.test.ts, on a hand-moved
  // clock) and measured by bench/state-fanout.ts; here, that state frames flow to a socket.
  it('delivers state frames, with a health frame among them, to a keyed socket', async () => {
    const ws = new WebSocket(wsUrl(`/ws?token=${TEST_TOKEN}`));
    const types: string[] = [];
    ws.on('message', (data) => types.push((JSON.parse(String(data)) as { type: string }).type));
    expect(await until(() => types.filter((t) => t === 'state').length >= 5 && types.includes('health'), 10_000)).toBe(
      true,
    );
    ws.close();
  });

  it('closes anonymous sockets with 4401, unknown paths with 4404 and foreign hosts with 4403', async () => {
    expect((await openSocket(wsUrl('/ws'), {}, '127.0.0.2')).code).toBe(4401);
    expect((await openSocket(wsUrl(`/ws?token=${TEST_TOKEN}`), { host: 'rebound.example' })).code).toBe(4403);
    expect((await openSocket(wsUrl('/ws?token=nope'))).code).toBe(4401);
    expect((await openSocket(wsUrl(`/nope?token=${TEST_TOKEN}`))).code).toBe(4404);
  });

  it('reports a stopped daemon honestly and recovers when it starts again', async () => {
    await h.sim('/sim/backend', { action: 'stop' });
    // The socket may fail over to polling before the 1 Hz status poll sees the stop: wait for the
    // health to name the stop (or the silence), not just for the first unhealthy answer.
    const named = async () => {
      const health = (await (await h.get('/api/health')).json()) as Health;
      return !health.ok && /daemon:stopped|stream:silent/.test(Object.keys(health.problems).join());
    };
    expect(await until(named, 3000)).toBe(true);
    // The last known state, marked stale with its age, rather than a 503.
    const state = await h.authed('/api/state');
    expect(state.status).toBe(200);
    const stale = (await state.json()) as RobotState;
    expect(stale.stale).toBe(true);
    expect(stale.ageMs).toBeGreaterThanOrEqual(0);
    expect(stale.daemon.presence).toBe('down');
    await h.sim('/sim/backend', { action: 'start' });
    const fresh = async () => ((await (await h.authed('/api/state')).json()) as RobotState).stale === undefined;
    expect(await until(fresh, 3000)).toBe(true);
  });

  // How fast it comes back is measured by the bench; here, that it does.
  it('survives a daemon restart: the feed comes back', async () => {
    await h.sim('/sim/backend', { action: 'restart' });
    const back = await until(async () => {
      const health = (await (await h.get('/api/health')).json()) as Health;
      return health.ok && health.stream.connected && (await h.authed('/api/state')).status === 200;
    }, 10_000);
    expect(back).toBe(true);
  });
});

describe('HTTP hygiene', () => {
  it('sends the security headers on the shell and the API', async () => {
    for (const path of ['/', '/api/health']) {
      const res = await h.get(path);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect((await h.get('/')).headers.get('cache-control')).toBe('no-cache');
  });

  it('refuses a foreign Host even on public routes', async () => {
    const res = await remoteRequest(`${h.url}/api/health`, {
      headers: { host: 'rebound.example' },
      localAddress: '127.0.0.1',
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'AUTH_FORBIDDEN' });
  });
});
