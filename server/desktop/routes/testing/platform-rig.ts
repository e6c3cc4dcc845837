/**
 * A real cockpit with an in-memory PlatformPort standing in for the platform client (server/ may
 * not import it; main/compose.test.ts runs the real client against the platform emulator), for
 * the platform console route tests. `call` fails the test if an answer carries the device token
 * or the owner session token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../../config.ts';
import type { PlatformEndpointEnrolInput } from '../../../contract/platform-enrol.ts';
import type { PlatformStatus as PlatformStatusView } from '../../../contract/platform.ts';
import { startCockpit, type Cockpit } from '../../../index.ts';
import { silentLog } from '../../../log.ts';
import { TEST_TOKEN } from '../../../testing/cockpit-harness.ts';
import type { PlatformPort, PortOutcome } from '../../platform-port.ts';

export const TOKEN = 'tind_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
export const SESSION = 'tcli_session-0123456789abcdefghijklmnop';

export const initial = (): PlatformStatusView => ({
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
export type FakePort = ReturnType<typeof fakePort>;

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

export const pasted = { platformUrl: 'https://platform.example', deviceId: 'dev-1', token: TOKEN };

export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** A keyed request; the answer must carry neither token. */
export async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
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

export interface PlatformRig {
  cockpit: Cockpit;
  port: FakePort;
  call(method: string, path: string, body?: unknown): Promise<Answer>;
  /** A dashboard's /ws, every frame kept parsed and raw. */
  socket(): Promise<{ ws: WebSocket; frames: Record<string, unknown>[]; raw: string[] }>;
  close(): Promise<void>;
}

export async function startPlatformRig(): Promise<PlatformRig> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-routes-'));
  const port = fakePort();
  const config = loadConfig({
    env: {
      ROBOT_HTTPS_PORT: '0',
      ROBOT_TRACK_AUTOSTART: '0',
      ROBOT_THINKER_INTERVAL: '3600',
      ROBOT_RATE_LIMIT: '1000',
    },
    flags: { sim: true, port: '0', host: '127.0.0.1', dataDir },
  });
  const cockpit = await startCockpit({ config, log: silentLog, ownerToken: TEST_TOKEN, platform: { port } });
  return {
    cockpit,
    port,
    call: (method, path, body) => call(cockpit.url, method, path, body),
    socket: () =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${cockpit.url.replace('http', 'ws')}/ws?token=${TEST_TOKEN}`);
        const frames: Record<string, unknown>[] = [];
        const raw: string[] = [];
        ws.on('message', (d) => {
          raw.push(String(d));
          frames.push(JSON.parse(String(d)) as Record<string, unknown>);
        });
        ws.once('open', () => resolve({ ws, frames, raw }));
        ws.once('error', reject);
      }),
    async close() {
      await cockpit.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
