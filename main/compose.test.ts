/**
 * The console as composeCockpit() wires it, end to end: a real cockpit (with its simulator), the
 * real platform client against the platform emulator, and the fake OpenAI server as the model.
 * Enrolment and disconnection go through the dashboard's console routes; relayed envelopes go
 * emulator → platform client → cockpit agent → fake model → PATCH reply, as on a real robot.
 * The test doubles live beside the code they stand in for (docs/testing.md, "Rules"), hence the two
 * imports past main/'s layering rule.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emulatorSeesOnline,
  startPlatformEmulator,
  type PlatformEmulator,
} from '../platform-client/test/platform-emulator.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../server/agent/providers/testing/fake-openai.ts';
import { cockpitLanUrl, type ComposedCockpit } from './compose.ts';
import {
  composeForTest,
  countingScheduler,
  dashboard,
  removeDataDirs,
  until,
  type CountingScheduler,
} from './testing/compose-rig.ts';

let emu: PlatformEmulator;
let fake: FakeOpenAi;
let owner: { userId: string; session: string };

beforeAll(async () => {
  emu = await startPlatformEmulator();
  fake = await startFakeOpenAi();
  owner = emu.addUser('owner');
});
afterAll(async () => {
  await emu.close();
  await fake.close();
  removeDataDirs();
});

const compose = (env: Record<string, string> = {}, onNotify?: (n: unknown) => void, scheduler?: CountingScheduler) =>
  composeForTest(env, { ...(onNotify ? { onNotify } : {}), ...(scheduler ? { platformScheduler: scheduler } : {}) });

/** The owner relays an envelope to the device and waits for its reply payload. */
async function relay(deviceId: string, payload: unknown, timeoutMs = 15_000): Promise<Record<string, unknown>> {
  const owned = (method: string, path: string, body?: unknown) =>
    fetch(`${emu.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${owner.session}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
  const { id } = (await owned('POST', '/api/devices/relay', { toDevice: deviceId, payload })) as { id: string };
  let reply: { payload: string } | null = null;
  await until(async () => {
    reply = ((await owned('GET', `/api/devices/relay?inReplyTo=${id}`)) as { reply: { payload: string } | null }).reply;
    return reply !== null;
  }, timeoutMs);
  if (!reply) throw new Error('no reply from the device');
  return JSON.parse((reply as { payload: string }).payload) as Record<string, unknown>;
}

describe('enrolment from the dashboard', () => {
  let c: ComposedCockpit;
  let ui: ReturnType<typeof dashboard>;
  let device: { deviceId: string; token: string };
  const scheduler = countingScheduler();

  beforeAll(async () => {
    device = emu.enrolDevice(owner.session, 'reachy-dashboard');
    c = await compose({}, undefined, scheduler);
    ui = dashboard(c);
    await ui.opened;
  });
  afterAll(async () => {
    ui.close();
    await c.stop();
    expect(ui.seen.join('\n')).not.toContain(device.token);
  });

  it('starts unenrolled and refuses a plain-http platform URL with 400', async () => {
    expect((await ui.call('GET', '/api/console/platform')).json).toMatchObject({ available: true, enrolled: false });
    const bad = await ui.call('POST', '/api/console/platform/enrol', {
      platformUrl: 'http://platform.example',
      ...device,
    });
    expect(bad).toMatchObject({ status: 400, json: { code: 'BAD_REQUEST', error: expect.stringMatching(/https/) } });
  });

  it('enrols: online after the proving heartbeat, capabilities announced, status on /ws, no token anywhere', async () => {
    const out = await ui.call('POST', '/api/console/platform/enrol', { platformUrl: emu.url, ...device });
    expect(out).toMatchObject({
      status: 200,
      json: { available: true, enrolled: true, online: true, connected: true, deviceId: device.deviceId },
    });
    expect(emulatorSeesOnline(emu, device.deviceId)).toBe(true);
    expect(await until(() => ui.frames.some((f) => f['type'] === 'platform' && f['online'] === true))).toBe(true);
    const capabilities = emu.ctx.state.devices.get(device.deviceId)?.capabilities ?? [];
    expect(capabilities).toEqual(expect.arrayContaining(['invoke', 'notify', 'look', 'say']));
    expect(capabilities).not.toContain('use_device');
    expect(existsSync(join(c.config.dataDir, 'platform', 'platform-device.secret'))).toBe(true);
    expect(ui.seen.join('\n')).not.toContain(device.token);
  });

  it("runs a dashboard chat through the 'platform' provider: the chat stream with the owner's session", async () => {
    emu.setChatScript((turn) => turn.say('Hello from ', 'the platform.'));
    expect((await ui.call('PUT', '/api/console/agent/settings', { provider: 'platform' })).status).toBe(200);
    const refused = await ui.call('POST', '/api/chat', { prompt: 'hello there' });
    expect(refused.json).toMatchObject({ ok: false, error: expect.stringMatching(/owner's session token/) });
    expect((await ui.call('PUT', '/api/console/platform/owner-session', { token: owner.session })).status).toBe(200);
    const chat = await ui.call('POST', '/api/chat', { prompt: 'hello there' });
    expect(chat.json).toMatchObject({ ok: true, result: 'Hello from the platform.' });
    const turn = emu.chat.turns.at(-1);
    expect(turn?.headers['x-svc-session']).toBe(device.deviceId);
    expect(turn?.messages.at(-1)).toEqual({ role: 'user', content: 'hello there' });
  });

  it('disconnects: the platform hears nothing more, state and controls keep working', async () => {
    expect((await ui.call('POST', '/api/console/platform/disconnect')).json).toMatchObject({ connected: false });
    // A tick already running when the loops stopped may still finish; after it nothing is
    // scheduled or in flight, so the platform can hear nothing more however long we wait.
    expect(await until(() => scheduler.outstanding() === 0)).toBe(true);
    const before = emu.requests.length;
    expect((await ui.call('GET', '/api/state')).status).toBe(200);
    expect((await ui.call('POST', '/api/control/antennas', { right: 15, left: -15 })).status).toBe(200);
    expect(scheduler.outstanding()).toBe(0);
    expect(emu.requests.slice(before)).toEqual([]);
    expect((await ui.call('POST', '/api/console/platform/connect')).json).toMatchObject({ connected: true });
    expect(await until(async () => (await ui.call('GET', '/api/console/platform')).json['online'] === true)).toBe(true);
  });

  it('forgets the identity: the token file is gone, local control still works', async () => {
    const out = await ui.call('DELETE', '/api/console/platform');
    expect(out.json).toMatchObject({ enrolled: false, connected: false, deviceId: null });
    expect(existsSync(join(c.config.dataDir, 'platform', 'platform-device.secret'))).toBe(false);
    expect((await ui.call('POST', '/api/control/antennas', { right: 0, left: 0 })).status).toBe(200);
    expect((await ui.call('GET', '/api/state')).status).toBe(200);
  });
});

describe('relayed envelopes, with the identity from ROBOT_PLATFORM_*', () => {
  let c: ComposedCockpit;
  let ui: ReturnType<typeof dashboard>;
  let device: { deviceId: string; token: string };
  const notified: unknown[] = [];

  beforeAll(async () => {
    device = emu.enrolDevice(owner.session, 'reachy-env');
    c = await compose(
      {
        ROBOT_PLATFORM_URL: emu.url,
        ROBOT_DEVICE_ID: device.deviceId,
        ROBOT_DEVICE_TOKEN: device.token,
        ROBOT_MODEL_PROVIDER: 'openai',
        ROBOT_MODEL_BASE_URL: fake.url,
        ROBOT_MODEL: 'fake-model',
      },
      (n) => notified.push(n),
    );
    ui = dashboard(c);
    await ui.opened;
    await until(() => emulatorSeesOnline(emu, device.deviceId));
  });
  afterAll(async () => {
    ui.close();
    await c.stop();
    expect(ui.seen.join('\n')).not.toContain(device.token);
  });

  it('is enrolled from the environment, which the dashboard cannot override', async () => {
    expect((await ui.call('GET', '/api/console/platform')).json).toMatchObject({
      enrolled: true,
      identitySource: 'env',
    });
    expect(await ui.call('DELETE', '/api/console/platform')).toMatchObject({ status: 409 });
  });

  it('answers an invoke through the real agent runtime: fake model, robot tool, PATCH reply', async () => {
    const reply = await relay(device.deviceId, { type: 'invoke', prompt: 'look to the left' });
    expect(reply).toEqual({ result: expect.stringContaining('Done.') });
    const first = fake.requests.find((r) => r.lastUserText.includes('look to the left'));
    expect(first?.lastUserText).toContain('[fleet depth=1 from owner] look to the left');
    expect(first?.toolNames).toContain('look');
    expect(first?.toolNames).not.toContain('use_device');
    expect(
      await until(async () => {
        const state = (await ui.call('GET', '/api/state')).json as { head?: { yaw?: number } };
        return Math.abs((state.head?.yaw ?? 0) - 30) < 3;
      }),
    ).toBe(true);
  });

  it('shows a notify envelope on /ws and as an event receipt, and acknowledges it', async () => {
    const pushed = emu.pushToUser(owner.userId, { title: 'Job done', body: 'The nightly job finished', url: '/jobs' });
    expect(pushed.relayed).toBeGreaterThanOrEqual(1);
    expect(await until(() => ui.frames.some((f) => f['type'] === 'notify'))).toBe(true);
    expect(ui.frames.find((f) => f['type'] === 'notify')).toMatchObject({
      title: 'Job done',
      body: 'The nightly job finished',
      url: '/jobs',
    });
    expect(ui.frames.find((f) => f['type'] === 'event' && f['action'] === 'notify')).toMatchObject({
      credential: 'system',
    });
    expect(notified).toEqual([expect.objectContaining({ title: 'Job done' })]);
    const acknowledged = () =>
      emu.ctx.relay.rows.some((r) => r.in_reply_to !== null && r.payload.includes('notification shown'));
    expect(await until(acknowledged)).toBe(true);
  });
});

describe('cockpitLanUrl', () => {
  const nic = (address: string, internal = false) => ({
    address,
    netmask: '255.255.255.0',
    family: 'IPv4' as const,
    mac: '00:00:00:00:00:00',
    internal,
    cidr: null,
  });

  it('announces a private IPv4 only: the bound one, or the first private one of a wildcard bind', () => {
    const interfaces = { lo: [nic('127.0.0.1', true)], eth0: [nic('203.0.113.5')], wlan0: [nic('192.168.1.40')] };
    expect(cockpitLanUrl('0.0.0.0', 8097, interfaces)).toBe('http://192.168.1.40:8097');
    expect(cockpitLanUrl('10.0.0.7', 8097, interfaces)).toBe('http://10.0.0.7:8097');
    expect(cockpitLanUrl('127.0.0.1', 8097, interfaces)).toBeNull();
    expect(cockpitLanUrl('0.0.0.0', 8097, { eth0: [nic('203.0.113.5')] })).toBeNull();
  });
});
