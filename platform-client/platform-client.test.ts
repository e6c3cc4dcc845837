import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from './index.ts';
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
