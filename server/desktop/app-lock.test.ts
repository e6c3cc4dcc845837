/**
 * The robot app lock end to end, against the simulator: while a daemon app or a remote session
 * holds the robot, manual motion is refused with 409 naming the holder; STOP always goes through;
 * once the slot is free again, motion works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, until, type Harness } from '../testing/cockpit-harness.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ ROBOT_RATE_LIMIT: '100' });
  await until(async () => (await h.authed('/api/state')).status === 200, 5000);
});
afterAll(() => h.close());

const control = async (path: string, body: unknown = {}) => {
  const res = await h.authed(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('robot app lock', () => {
  it('refuses manual motion while a local app holds the robot, naming it; STOP still goes through', async () => {
    const lock = await h.sim('/sim/app-lock', { state: 'local_app', holder: 'hello_world' });
    expect(((await lock.json()) as { appLock: unknown }).appLock).toEqual({ state: 'local_app', holder_name: 'hello_world' });
    for (const [path, body] of [
      ['/api/control/look', { yaw: 10 }],
      ['/api/control/antennas', { right: 10, left: -10 }],
      ['/api/control/home', {}],
      ['/api/control/wake', {}],
      ['/api/control/reel', { action: 'start' }],
    ] as const) {
      const res = await control(path, body);
      expect(res.status, path).toBe(409);
      expect(res.body).toEqual({
        error: expect.stringMatching(/in use by the app "hello_world"/),
        code: 'ROBOT_APP_LOCKED',
        holder: { kind: 'local_app', name: 'hello_world' },
      });
    }
    const stop = await control('/api/control/stop');
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ latched: true });
    expect((await control('/api/console/resume')).status).toBe(200);
  });

  it('says "a remote session" for the central relay, and lets motion through once free', async () => {
    await h.sim('/sim/app-lock', { state: 'remote_session' });
    expect((await control('/api/control/look', { yaw: 5 })).body).toMatchObject({
      code: 'ROBOT_APP_LOCKED',
      error: expect.stringMatching(/a remote session/),
      holder: { kind: 'remote_session', name: 'remote' },
    });
    await h.sim('/sim/app-lock', { state: 'free' });
    expect((await control('/api/control/look', { yaw: 5, duration: 0.2 })).status).toBe(200);
  });

  it('the simulator control refuses a malformed lock', async () => {
    const res = await h.sim('/sim/app-lock', { state: 'borrowed' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'state must be "free", "local_app" or "remote_session"' });
    expect((await h.sim('/sim/app-lock', { state: 'local_app' })).status).toBe(400);
    await h.sim('/sim/app-lock', { state: 'free' });
  });
});
