/**
 * The platform console routes on a real cockpit, with an in-memory PlatformPort standing in for
 * the platform client (server/ may not import it; main/compose.test.ts runs the real client
 * against the platform emulator). Checks the edge validation, the refusal mapping, that the
 * token never comes back, the /ws frames, and the answers without a port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../config.ts';
import { startCockpit, type Cockpit } from '../../index.ts';
import { silentLog } from '../../log.ts';
import { startHarness, TEST_TOKEN, until, type Harness } from '../../testing/cockpit-harness.ts';
import type { PlatformStatus as PlatformStatusView } from '../../contract/platform.ts';
import type { PlatformEndpointEnrolInput } from '../../contract/platform-enrol.ts';
import type { PlatformPort, PortOutcome } from '../platform-port.ts';

const TOKEN = 'tind_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const SESSION = 'tcli_session-0123456789abcdefghijklmnop';

const initial = (): PlatformStatusView => ({
  enrolled: false,
  identitySource: null,
  platformUrl: null,
  deviceId: null,
  connected: false,
  online: false,
  lastHeartbeatAt: null,
  envelopesHandled: 0,
  lastError: null,
  unread: null,
  halted: null,
  tokenNotice: null,
  ownerSession: null,
  firmware: {
    state: 'disabled',
    channel: 'stable',
    currentVersion: null,
    available: null,
    staged: null,
    lastCheckedAt: null,
    message: null,
    installAllowed: false,
    installer: null,
  },
});

/** A port that behaves like the client for these routes, and leaks the token where it can. */
function fakePort() {
  let status = initial();
  const listeners = new Set<(s: PlatformStatusView) => void>();
  const set = (patch: Partial<PlatformStatusView>) => {
    status = { ...status, ...patch };
    // A careless client could put the token in its status object: the routes must not pass it on.
    const leaky = Object.assign({}, status, { token: TOKEN });
    for (const listener of listeners) listener(leaky);
  };
  const port: PlatformPort & {
    set: typeof set;
    failStorage: boolean;
    platformDown: boolean;
    endpoints: PlatformEndpointEnrolInput[];
  } = {
    set,
    status: () => Object.assign({}, status, { token: TOKEN }),
    onChange: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    async enrol(input): Promise<PortOutcome<PlatformStatusView>> {
      if (!input.platformUrl.startsWith('https://'))
        return { ok: false, failure: { kind: 'bad_request', message: 'the platform URL must use https' } };
      if (input.token !== TOKEN)
        return { ok: false, failure: { kind: 'unauthorized', message: `the platform refused ${input.token}` } };
      set({ enrolled: true, identitySource: 'stored', platformUrl: input.platformUrl, deviceId: input.deviceId });
      set({ connected: true, online: true, lastHeartbeatAt: Date.now() });
      return { ok: true, value: port.status() };
    },
    connect: () => set({ connected: true }),
    disconnect: async () => set({ connected: false, online: false }),
    forget: async () => set({ ...initial(), firmware: status.firmware }),
    async setFirmwareChannel(channel) {
      if (!/^[a-z0-9][a-z0-9_-]{0,31}$/.test(channel))
        return { ok: false, failure: { kind: 'bad_request', message: 'a channel is 1–32 of a-z, 0-9, _ and -' } };
      set({ firmware: { ...status.firmware, channel } });
      return { ok: true, value: undefined };
    },
    async setFirmwareInstall(installAllowed) {
      if (port.failStorage) return { ok: false, failure: { kind: 'storage', message: 'the disk is full' } };
      set({ firmware: { ...status.firmware, installAllowed } });
      return { ok: true, value: undefined };
    },
    async enrolWithSession(input): Promise<PortOutcome<PlatformStatusView>> {
      if (input.sessionToken !== SESSION)
        return { ok: false, failure: { kind: 'unauthorized', message: `the platform refused ${input.sessionToken}` } };
      set({ enrolled: true, identitySource: 'stored', platformUrl: input.platformUrl, deviceId: `dev-${input.name}` });
      if (input.keepSession) set({ ownerSession: 'stored' });
      return { ok: true, value: port.status() };
    },
    async setOwnerSession(token): Promise<PortOutcome<PlatformStatusView>> {
      if (token !== SESSION)
        return { ok: false, failure: { kind: 'bad_request', message: `the platform refused ${token}` } };
      set({ ownerSession: 'stored' });
      return { ok: true, value: port.status() };
    },
    async forgetOwnerSession(): Promise<PortOutcome<PlatformStatusView>> {
      set({ ownerSession: null });
      return { ok: true, value: port.status() };
    },
    async adoptToken(): Promise<PortOutcome<PlatformStatusView>> {
      if (port.platformDown) return { ok: false, failure: { kind: 'unavailable', message: 'platform unreachable' } };
      if (status.identitySource === 'env')
        return { ok: false, failure: { kind: 'conflict', message: 'ROBOT_DEVICE_TOKEN decides the device token' } };
      if (status.ownerSession === null)
        return { ok: false, failure: { kind: 'bad_request', message: "store the owner's session token first" } };
      set({ tokenNotice: null, halted: null, online: true });
      return { ok: true, value: port.status() };
    },
    async enrolEndpoint(input) {
      if (port.platformDown) return { ok: false, failure: { kind: 'unavailable', message: 'platform unreachable' } };
      if (!input.url.startsWith('https://'))
        return { ok: false, failure: { kind: 'bad_request', message: 'the robot URL must be https on a public host' } };
      if (input.sessionToken !== SESSION)
        return {
          ok: false,
          failure: { kind: 'unauthorized', message: `the platform refused ${input.sessionToken} for ${input.secret}` },
        };
      port.endpoints.push(input);
      return { ok: true, value: { platformUrl: input.platformUrl, deviceId: `endpoint-${input.name}` } };
    },
    failStorage: false,
    platformDown: false,
    endpoints: [],
  };
  return port;
}

let cockpit: Cockpit;
let port: ReturnType<typeof fakePort>;
let dataDir: string;
let bare: Harness;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'platform-routes-'));
  port = fakePort();
  const config = loadConfig({
    env: {
      ROBOT_HTTPS_PORT: '0',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_THINKER_INTERVAL: '3600',
      ROBOT_RATE_LIMIT: '1000',
    },
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
  });
  cockpit = await startCockpit({ config, log: silentLog, ownerToken: TEST_TOKEN, platform: { port } });
  bare = await startHarness({ ROBOT_RATE_LIMIT: '1000' });
});
afterAll(async () => {
  await cockpit.stop();
  await bare.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown, base = cockpit.url) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(SESSION);
  return { status: res.status, json: JSON.parse(text) as Record<string, unknown> };
}

function socket(): Promise<{ ws: WebSocket; frames: Record<string, unknown>[]; raw: string[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${cockpit.url.replace('http', 'ws')}/ws?token=${TEST_TOKEN}`);
    const frames: Record<string, unknown>[] = [];
    const raw: string[] = [];
    ws.on('message', (d) => {
      raw.push(String(d));
      frames.push(JSON.parse(String(d)) as Record<string, unknown>);
    });
    ws.once('open', () => resolve({ ws, frames, raw }));
    ws.once('error', reject);
  });
}

const pasted = { platformUrl: 'https://platform.example', deviceId: 'dev-1', token: TOKEN };

describe('without a platform client', () => {
  it('says so on GET and answers 503 NOT_CONFIGURED elsewhere', async () => {
    expect(await call('GET', '/api/console/platform', undefined, bare.url)).toEqual({
      status: 200,
      json: { enrolled: false, available: false },
    });
    for (const [method, path, body] of [
      ['POST', '/api/console/platform/enrol', pasted],
      ['POST', '/api/console/platform/connect', undefined],
      ['POST', '/api/console/platform/disconnect', undefined],
      ['DELETE', '/api/console/platform', undefined],
      ['PUT', '/api/console/platform/firmware', { channel: 'beta' }],
      [
        'POST',
        '/api/console/platform/enrol-session',
        { platformUrl: 'https://p.example', sessionToken: SESSION, name: 'r' },
      ],
      ['PUT', '/api/console/platform/owner-session', { token: SESSION }],
      ['DELETE', '/api/console/platform/owner-session', undefined],
      ['POST', '/api/console/platform/adopt', undefined],
      [
        'POST',
        '/api/console/platform/enrol-endpoint',
        { platformUrl: 'https://p.example', sessionToken: SESSION, name: 'r', url: 'https://robot.example' },
      ],
    ] as const) {
      expect(await call(method, path, body, bare.url)).toMatchObject({ status: 503, json: { code: 'NOT_CONFIGURED' } });
    }
  });
});

describe('with a platform client', () => {
  it('validates the enrolment at the edge: an object of three bounded strings, nothing else', async () => {
    const bad = [
      [],
      { ...pasted, token: 42 },
      { platformUrl: pasted.platformUrl, deviceId: 'x' },
      { ...pasted, deviceId: 'x'.repeat(129) },
      { ...pasted, extra: true },
    ];
    for (const body of bad) {
      expect(await call('POST', '/api/console/platform/enrol', body)).toMatchObject({
        status: 400,
        json: { code: 'BAD_REQUEST' },
      });
    }
  });

  it("relays the client's refusals as 400 without echoing the token", async () => {
    const http = await call('POST', '/api/console/platform/enrol', {
      ...pasted,
      platformUrl: 'http://platform.example',
    });
    expect(http).toEqual({ status: 400, json: { error: 'the platform URL must use https', code: 'BAD_REQUEST' } });
    const refused = await call('POST', '/api/console/platform/enrol', { ...pasted, token: `${TOKEN}x` });
    expect(refused).toEqual({ status: 400, json: { error: 'the platform refused [token]', code: 'BAD_REQUEST' } });
  });

  it('enrols, broadcasts the status on /ws without the token, and answers the status view', async () => {
    const { ws, frames, raw } = await socket();
    const out = await call('POST', '/api/console/platform/enrol', pasted);
    expect(out.status).toBe(200);
    expect(out.json).toMatchObject({ available: true, enrolled: true, online: true, deviceId: 'dev-1' });
    expect(Object.keys(out.json)).not.toContain('token');
    expect(await until(() => frames.some((f) => f['type'] === 'platform' && f['online'] === true), 2000)).toBe(true);
    expect(frames.find((f) => f['type'] === 'platform')).toMatchObject({ available: true, enrolled: true });
    expect(raw.join('\n')).not.toContain(TOKEN);
    expect((await call('GET', '/api/console/platform')).json).toMatchObject({ enrolled: true, connected: true });
    ws.close();
  });

  it('disconnects and connects, sets the firmware channel, refuses a bad one', async () => {
    expect((await call('POST', '/api/console/platform/disconnect')).json).toMatchObject({ connected: false });
    expect((await call('POST', '/api/console/platform/connect')).json).toMatchObject({ connected: true });
    expect((await call('PUT', '/api/console/platform/firmware', { channel: 'beta' })).json).toMatchObject({
      firmware: { channel: 'beta' },
    });
    expect(await call('PUT', '/api/console/platform/firmware', { channel: 'Not OK' })).toMatchObject({ status: 400 });
  });

  it('sets the install consent with or without the channel, and validates both', async () => {
    expect((await call('PUT', '/api/console/platform/firmware', { installAllowed: true })).json).toMatchObject({
      firmware: { channel: 'beta', installAllowed: true, installer: null },
    });
    expect(
      (await call('PUT', '/api/console/platform/firmware', { channel: 'stable', installAllowed: false })).json,
    ).toMatchObject({ firmware: { channel: 'stable', installAllowed: false } });
    for (const body of [{}, { installAllowed: 'yes' }, { channel: 3 }, { channel: 'x'.repeat(33) }, { other: 1 }])
      expect(await call('PUT', '/api/console/platform/firmware', body)).toMatchObject({
        status: 400,
        json: { code: 'BAD_REQUEST' },
      });
    port.failStorage = true;
    expect(await call('PUT', '/api/console/platform/firmware', { installAllowed: true })).toEqual({
      status: 503,
      json: { error: 'the disk is full', code: 'STORAGE_FAILED' },
    });
    port.failStorage = false;
  });

  it('stores the owner session for use_device, never echoing it, and forgets it', async () => {
    expect(await call('PUT', '/api/console/platform/owner-session', { token: `${SESSION}x` })).toEqual({
      status: 400,
      json: { error: 'the platform refused [token]', code: 'BAD_REQUEST' },
    });
    for (const body of [{}, { token: '' }, { token: SESSION, extra: 1 }, { token: 'x'.repeat(513) }])
      expect(await call('PUT', '/api/console/platform/owner-session', body)).toMatchObject({ status: 400 });
    expect((await call('PUT', '/api/console/platform/owner-session', { token: SESSION })).json).toMatchObject({
      ownerSession: 'stored',
    });
    expect((await call('DELETE', '/api/console/platform/owner-session')).json).toMatchObject({ ownerSession: null });
  });

  it('shows a refused token and re-keys through the owner session on adopt; an unreachable platform is not NOT_CONFIGURED', async () => {
    port.set({
      tokenNotice: { kind: 'rotated', since: 1, message: 'rotated by the owner', offer: 'adopt' },
      halted: { reason: 'token_rotated', since: 1, message: 'rotated by the owner' },
    });
    expect((await call('GET', '/api/console/platform')).json).toMatchObject({
      tokenNotice: { kind: 'rotated', offer: 'adopt', message: 'rotated by the owner' },
      halted: { reason: 'token_rotated' },
    });
    expect(await call('POST', '/api/console/platform/adopt')).toMatchObject({
      status: 400,
      json: { code: 'BAD_REQUEST' },
    });
    expect((await call('PUT', '/api/console/platform/owner-session', { token: SESSION })).status).toBe(200);
    port.platformDown = true;
    expect(await call('POST', '/api/console/platform/adopt')).toMatchObject({
      status: 503,
      json: { code: 'PLATFORM_UNREACHABLE', error: 'platform unreachable' },
    });
    port.platformDown = false;
    expect(await call('POST', '/api/console/platform/adopt')).toMatchObject({
      status: 200,
      json: { tokenNotice: null, halted: null },
    });
    expect((await call('DELETE', '/api/console/platform/owner-session')).status).toBe(200);
  });

  it('forgets the identity; connect then needs a new enrolment', async () => {
    expect((await call('DELETE', '/api/console/platform')).json).toMatchObject({ enrolled: false, deviceId: null });
    expect(await call('POST', '/api/console/platform/connect')).toMatchObject({ status: 409 });
  });

  it('enrols with the owner session token, keeping it only when asked', async () => {
    const body = { platformUrl: 'https://platform.example', sessionToken: SESSION, name: 'desk' };
    for (const bad of [
      { ...body, keepSession: 'yes' },
      { ...body, name: '' },
      { ...body, deviceId: 'x' },
    ])
      expect(await call('POST', '/api/console/platform/enrol-session', bad)).toMatchObject({ status: 400 });
    expect(await call('POST', '/api/console/platform/enrol-session', { ...body, sessionToken: `${SESSION}x` })).toEqual(
      {
        status: 400,
        json: { error: 'the platform refused [token]', code: 'BAD_REQUEST' },
      },
    );
    expect(
      (await call('POST', '/api/console/platform/enrol-session', { ...body, keepSession: true })).json,
    ).toMatchObject({ enrolled: true, deviceId: 'dev-desk', ownerSession: 'stored' });
    port.set(initial());
  });

  it('leaves enrolment and forgetting to the environment while ROBOT_PLATFORM_* decide', async () => {
    port.set({ enrolled: true, identitySource: 'env' });
    expect(await call('POST', '/api/console/platform/enrol', pasted)).toMatchObject({ status: 409 });
    expect(
      await call('POST', '/api/console/platform/enrol-session', {
        platformUrl: 'https://platform.example',
        sessionToken: SESSION,
        name: 'desk',
      }),
    ).toMatchObject({ status: 409 });
    expect(await call('DELETE', '/api/console/platform')).toMatchObject({ status: 409 });
    port.set(initial());
  });

  it('makes the robot an endpoint device with the owner token as its bearer, which never comes back', async () => {
    const path = '/api/console/platform/enrol-endpoint';
    const body = {
      platformUrl: 'https://platform.example',
      sessionToken: SESSION,
      name: 'reachy',
      url: 'https://reachy.example.com/cockpit',
    };
    for (const bad of [
      [],
      'reachy',
      { ...body, url: 42 },
      { ...body, name: '' },
      { ...body, name: 'n'.repeat(65) },
      { ...body, secret: 'chosen-by-the-page' },
      { platformUrl: body.platformUrl, sessionToken: SESSION, name: 'reachy' },
    ])
      expect(await call('POST', path, bad)).toMatchObject({ status: 400, json: { code: 'BAD_REQUEST' } });
    expect(await call('POST', path, { ...body, url: 'http://reachy.example.com' })).toEqual({
      status: 400,
      json: { error: 'the robot URL must be https on a public host', code: 'BAD_REQUEST' },
    });
    const refused = await call('POST', path, { ...body, sessionToken: `${SESSION}x` });
    expect(refused).toEqual({
      status: 400,
      json: { error: 'the platform refused [token] for [owner token]', code: 'BAD_REQUEST' },
    });
    port.platformDown = true;
    expect(await call('POST', path, body)).toMatchObject({ status: 503, json: { code: 'PLATFORM_UNREACHABLE' } });
    port.platformDown = false;
    expect(port.endpoints).toEqual([]);

    const created = await call('POST', path, body);
    expect(created).toEqual({
      status: 200,
      json: {
        endpoint: {
          platformUrl: 'https://platform.example',
          deviceId: 'endpoint-reachy',
          url: 'https://reachy.example.com',
        },
      },
    });
    expect(JSON.stringify(created.json)).not.toContain(TEST_TOKEN);
    expect(port.endpoints).toEqual([{ ...body, secret: TEST_TOKEN }]);
    // The pull-device identity is another matter: nothing changed there.
    expect((await call('GET', '/api/console/platform')).json).toMatchObject({ enrolled: false });
  });

  it('shows a notify envelope as an event receipt (system) and a notify frame', async () => {
    const { ws, frames } = await socket();
    cockpit.notify({ title: 'Job done', body: 'The nightly job finished', tag: 'job', url: '/jobs' });
    expect(await until(() => frames.some((f) => f['type'] === 'notify'), 2000)).toBe(true);
    expect(frames.find((f) => f['type'] === 'notify')).toEqual({
      type: 'notify',
      title: 'Job done',
      body: 'The nightly job finished',
      tag: 'job',
      url: '/jobs',
    });
    expect(frames.find((f) => f['type'] === 'event')).toMatchObject({
      action: 'notify',
      credential: 'system',
      values: { title: 'Job done', tag: 'job', url: '/jobs' },
    });
    ws.close();
  });
});
