import { mkdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from './index.ts';
import { PATHS } from './limits.ts';
import { createFileSecretStore, createMemorySecretStore } from './secret-store.ts';
import { startHarness, type Harness } from './test/client-harness.ts';
import type { PlatformStatus } from './status.ts';

let h: Harness;
afterEach(() => h?.close());

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const pasted = () => ({ platformUrl: h.emu.url, deviceId: h.device.deviceId, token: h.device.token });

describe('enrolment', () => {
  it('proves pasted values with a heartbeat, stores them 0600 and connects; the token appears nowhere', async () => {
    h = await startHarness({ enrolled: false });
    const seen: PlatformStatus[] = [];
    h.client.onChange((s) => seen.push(s));
    expect((await h.client.start()).ok).toBe(true);
    expect(h.client.status()).toMatchObject({ enrolled: false, connected: false });

    const out = await h.client.enrol(pasted());
    expect(out).toMatchObject({
      ok: true,
      value: { enrolled: true, identitySource: 'stored', deviceId: h.device.deviceId, online: true, connected: true },
    });
    const file = join(h.dataDir, 'secrets', 'platform-device.secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    for (const s of [...seen, h.client.status()]) expect(JSON.stringify(s)).not.toContain(h.device.token);
    expect(JSON.stringify(h.logs)).not.toContain(h.device.token);
  });

  it('refuses a wrong token or a non-https URL and stores nothing', async () => {
    h = await startHarness({ enrolled: false });
    await h.client.start();
    const wrong = await h.client.enrol({ ...pasted(), token: 'tind_not-the-right-token' });
    expect(wrong).toMatchObject({ ok: false, failure: { kind: 'unauthorized' } });
    const http = await h.client.enrol({ ...pasted(), platformUrl: 'http://tiny.technology' });
    expect(http).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request', message: expect.stringMatching(/https/) },
    });
    await expect(stat(join(h.dataDir, 'secrets', 'platform-device.secret'))).rejects.toThrow();
    expect(h.client.status().enrolled).toBe(false);
  });

  it('accepts an enrolment while the platform is unreachable, unverified', async () => {
    h = await startHarness({ enrolled: false });
    await h.client.start();
    h.emu.setOutage(true);
    const out = await h.client.enrol(pasted());
    expect(out).toMatchObject({ ok: true, value: { enrolled: true, online: false } });
  });

  it('creates the device with an owner session token, then enrols it', async () => {
    h = await startHarness({ enrolled: false });
    await h.client.start();
    const out = await h.client.enrolWithSession({
      platformUrl: h.emu.url,
      sessionToken: h.owner.session,
      name: 'workshop robot',
      platform: 'robot-cockpit',
      capabilities: ['say'],
    });
    expect(out).toMatchObject({ ok: true, value: { enrolled: true, online: true } });
    const created = [...h.emu.ctx.state.devices.values()].find((d) => d.name === 'workshop robot');
    expect(created).toMatchObject({ kind: 'daemon', platform: 'robot-cockpit' });
    expect(h.client.status().deviceId).toBe(created?.id);
    const refused = await h.client.enrolWithSession({ platformUrl: h.emu.url, sessionToken: 'nope', name: 'x' });
    expect(refused).toMatchObject({ ok: false, failure: { kind: 'unauthorized' } });
  });

  it('uses the environment identity first and reports a bad one naming the variables', async () => {
    h = await startHarness();
    const started = await h.client.start();
    expect(started).toMatchObject({ ok: true, value: { identitySource: 'env', enrolled: true } });
    const bad = createPlatformClient({
      secrets: createMemorySecretStore(),
      dataDir: h.dataDir,
      log: quiet,
      envIdentity: { platformUrl: 'ftp://x', deviceId: 'a', token: 'tind_abcdefgh' },
      capabilities: () => [],
      runFleetTurn: async () => ({ text: '' }),
      notify: () => undefined,
      scheduler: h.sched,
    });
    expect(await bad.start()).toMatchObject({
      ok: false,
      failure: { message: expect.stringContaining('ROBOT_PLATFORM_URL') },
    });
  });
});

describe('re-enrolment on another platform', () => {
  let silent: Server | null = null;
  /** Ends the silent platform: from then on its address refuses connections at once. */
  const closeSilent = () => {
    silent?.closeAllConnections();
    silent?.close();
    silent = null;
  };
  afterEach(closeSilent);

  /** A platform that accepts connections and never answers. */
  async function silentPlatform(): Promise<string> {
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  }
  const elsewhere = (platformUrl: string) => ({
    platformUrl,
    deviceId: 'robot-elsewhere',
    token: 'tind_other-platform',
  });

  it('counts nothing of the old platform for one that never answers: not online until it does', async () => {
    h = await startHarness({ enrolled: false, deps: { requestTimeoutMs: 200 } });
    h.emu.setUnread(h.owner.userId, 3);
    await h.client.start();
    expect(await h.client.enrol(pasted())).toMatchObject({ ok: true, value: { online: true, unread: 3 } });
    const url = await silentPlatform();

    const out = await h.client.enrol(elsewhere(url));

    expect(out).toMatchObject({
      ok: true,
      value: { platformUrl: url, online: false, lastHeartbeatAt: null, unread: null, lastError: null },
    });
    // The old platform's loops are gone: it hears nothing more, whatever the new one does.
    const heard = h.emu.requests.length;
    closeSilent();
    await h.sched.advance(120_000);
    expect(h.emu.requests.length).toBe(heard);
    expect(h.client.status()).toMatchObject({ platformUrl: url, online: false, lastHeartbeatAt: null });
  });

  it('drops the answer to a heartbeat the old platform gave after the switch', async () => {
    let holding = false;
    let release: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const heartbeatHeld = new Promise<void>((resolve) => (reached = resolve));
    // Holds the old platform's answer to one heartbeat until the test lets it through.
    const gated = async (input: string, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (holding && input === `${h.emu.url}${PATHS.heartbeat}`) {
        holding = false;
        reached();
        await new Promise<void>((resolve) => (release = resolve));
      }
      return response;
    };
    h = await startHarness({ enrolled: false, deps: { fetch: gated } });
    await h.client.start();
    await h.client.enrol(pasted());
    holding = true;
    const ticking = h.sched.advance(0);
    await heartbeatHeld;

    // The new platform refuses connections: the enrolment is taken unverified at once.
    const url = await silentPlatform();
    closeSilent();
    expect(await h.client.enrol(elsewhere(url))).toMatchObject({ ok: true, value: { online: false } });
    release();
    await ticking;

    expect(h.client.status()).toMatchObject({ platformUrl: url, online: false, lastHeartbeatAt: null });
  });
});

describe('disconnect and forget', () => {
  it('disconnect stops the loops and keeps the identity; forget deletes it', async () => {
    h = await startHarness({ enrolled: false });
    await h.client.start();
    await h.client.enrol(pasted());
    await h.sched.advance(0);
    await h.client.disconnect();
    const count = h.attempts.length;
    await h.sched.advance(120_000);
    expect(h.attempts.length).toBe(count);
    expect(h.client.status()).toMatchObject({ enrolled: true, connected: false, online: false });

    // A fresh client over the same data dir finds the stored identity.
    const again = createPlatformClient({
      secrets: createFileSecretStore({ dir: join(h.dataDir, 'secrets') }),
      dataDir: h.dataDir,
      log: quiet,
      capabilities: () => [],
      runFleetTurn: async () => ({ text: '' }),
      notify: () => undefined,
      scheduler: h.sched,
    });
    expect(await again.start()).toMatchObject({
      ok: true,
      value: { enrolled: true, identitySource: 'stored', connected: true },
    });
    await again.disconnect();

    h.client.connect();
    expect(h.client.status().connected).toBe(true);
    await h.client.forget();
    expect(h.client.status()).toMatchObject({ enrolled: false, deviceId: null, connected: false });
    await expect(stat(join(h.dataDir, 'secrets', 'platform-device.secret'))).rejects.toThrow();
  });
});

describe('files that cannot be read at start', () => {
  it('starts unenrolled and says why when the identity, the owner session and the firmware choices cannot be read', async () => {
    h = await startHarness({ enrolled: false });
    // A folder where each file should be: reading fails (EISDIR) as on a failing disk, and it cannot be set aside either.
    for (const path of [
      ['secrets', 'platform-device.secret'],
      ['secrets', 'platform-owner-session.secret'],
      ['firmware', 'prefs.json'],
    ])
      await mkdir(join(h.dataDir, ...path), { recursive: true });
    expect(await h.client.start()).toMatchObject({
      ok: true,
      value: {
        enrolled: false,
        ownerSession: null,
        lastError: { kind: 'bad_request', message: 'stored platform identity could not be read (EISDIR)' },
        firmware: { channel: 'stable', installAllowed: false },
      },
    });
    expect(h.logs.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
      'stored owner session could not be read',
      'stored platform identity could not be read',
    ]);
  });
});

describe('device routes through the client', () => {
  it('posts a task result and gets its ticket', async () => {
    h = await startHarness();
    await h.client.start();
    const out = await h.client.routes.taskResult({ taskId: 'scan-1', summary: 'room scanned', result: 'two chairs' });
    expect(out).toEqual({
      ok: true,
      value: { ticket: `task_${h.device.deviceId.replace(/-/g, '').slice(0, 8)}_scan-1` },
    });
  });

  it('checks limits before sending: bad kinds, long details, wrong media types never leave the robot', async () => {
    h = await startHarness();
    await h.client.start();
    const before = h.attempts.length;
    expect(await h.client.routes.event('reboot' as never)).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request' },
    });
    expect(await h.client.routes.event('device_note', 'd'.repeat(301))).toMatchObject({
      ok: false,
      failure: { kind: 'too_large' },
    });
    expect(await h.client.routes.taskResult({ taskId: 'x', result: 'r'.repeat(7001) })).toMatchObject({
      ok: false,
      failure: { kind: 'too_large' },
    });
    expect(await h.client.routes.transcript({ text: 't'.repeat(16_385) })).toMatchObject({
      ok: false,
      failure: { kind: 'too_large' },
    });
    expect(await h.client.routes.transcript({ text: 'hi', audioUrl: 'http://x' })).toMatchObject({ ok: false });
    expect(await h.client.routes.media({ data: new Uint8Array(3), contentType: 'text/plain' })).toMatchObject({
      ok: false,
    });
    expect(
      // "6 MB" is 6,000,000 bytes: the smaller reading, which every reading of the platform accepts.
      await h.client.routes.media({ data: new Uint8Array(6_000_001), contentType: 'image/png' }),
    ).toMatchObject({ ok: false, failure: { kind: 'too_large' } });
    expect(h.attempts.length).toBe(before);
  });

  it('sends events, transcripts and media the platform accepts', async () => {
    h = await startHarness();
    await h.client.start();
    expect(await h.client.routes.event('device_note', 'battery low')).toEqual({ ok: true, value: undefined });
    expect(await h.client.routes.transcript({ text: 'hello robot', label: 'mic', durationS: 2 })).toMatchObject({
      ok: true,
    });
    const media = await h.client.routes.media({ data: new Uint8Array([1, 2, 3]), contentType: 'audio/wav' });
    expect(media).toMatchObject({ ok: true, value: { bytes: 3, url: expect.stringContaining('/media/') } });
    expect(h.emu.ctx.state.events.map((e) => e.kind)).toContain('device_note');
  });
});
