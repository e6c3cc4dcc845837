import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RobotState } from '../contract/state.ts';
import { startHarness, TEST_TOKEN, until, type Harness } from '../testing/cockpit-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function socket(query = `?token=${TEST_TOKEN}`): Promise<{ ws: WebSocket; frames: Record<string, unknown>[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${h.url.replace('http', 'ws')}/ws${query}`);
    const frames: Record<string, unknown>[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Record<string, unknown>));
    ws.once('open', () => resolve({ ws, frames }));
    ws.once('error', reject);
  });
}

describe('/ws realtime', () => {
  it('sends an event receipt to every dashboard when a control runs, naming the credential', async () => {
    const { ws, frames } = await socket();
    const res = await h.authed('/api/control/antennas', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ right: 20, left: -20 }),
    });
    expect(res.status).toBe(200);
    expect(await until(() => frames.some((f) => f['type'] === 'event'), 2000)).toBe(true);
    expect(frames.find((f) => f['type'] === 'event')).toMatchObject({ action: 'antennas', credential: 'token' });
    ws.close();
  });

  it('drives the head from joystick frames with a key, and refuses them on loopback trust alone', async () => {
    const anonymous = await socket('');
    anonymous.ws.send(JSON.stringify({ type: 'joystick', yaw: 25, pitch: 0, roll: 0, z: 0 }));
    expect(await until(() => anonymous.frames.some((f) => f['type'] === 'error'), 2000)).toBe(true);
    expect(anonymous.frames.find((f) => f['type'] === 'error')).toMatchObject({ code: 'AUTH_REQUIRED' });
    anonymous.ws.close();

    const { ws } = await socket();
    const timer = setInterval(() => ws.send(JSON.stringify({ type: 'joystick', yaw: 25, pitch: 0, roll: 0, z: 0 })), 40);
    const turned = await until(async () => {
      const state = (await (await h.authed('/api/state')).json()) as RobotState;
      return Math.abs(state.head.yaw - 25) < 2;
    }, 3000);
    clearInterval(timer);
    expect(turned).toBe(true);
    ws.close();
  });

  it('answers pings and reports malformed messages', async () => {
    const { ws, frames } = await socket();
    ws.send(JSON.stringify({ type: 'ping' }));
    ws.send('not json');
    expect(await until(() => frames.some((f) => f['type'] === 'pong') && frames.some((f) => f['code'] === 'BAD_JSON'), 2000)).toBe(true);
    ws.close();
  });
});

describe('request timing', () => {
  it('reports the time from receive to daemon send on controls', async () => {
    const res = await h.authed('/api/control/antennas', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ right: 5, left: -5 }),
    });
    const timing = res.headers.get('server-timing') ?? '';
    // A duration in milliseconds; how long it is belongs to the benchmark (bench/), not here.
    expect(timing).toMatch(/^cockpit;dur=\d+(\.\d+)?;desc="receive to daemon send"$/);
  });

  it('leaves reads out: they are served from the state cache and skip the async context', async () => {
    const res = await h.authed('/api/state');
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toBeNull();
  });
});
