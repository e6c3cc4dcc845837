import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from '../platform-client.ts';
import { createMemorySecretStore } from '../secret-store.ts';
import { startHarness, type Harness } from '../test/client-harness.ts';
import { eventually } from '../../server/testing/eventually.ts';
import type { StagedBundle } from './bundle.ts';
import type { FirmwareUpdater } from './firmware-poller.ts';

let h: Harness;
afterEach(() => h?.close());

const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const HOUR = 3_600_000;

interface TestUpdater extends FirmwareUpdater {
  idle: boolean;
  installerName: string | null;
  applied: StagedBundle[];
}

function updater(current = '1.0.0'): TestUpdater {
  const u: TestUpdater = {
    idle: false,
    installerName: 'test installer',
    applied: [],
    currentVersion: () => current,
    isIdle: () => u.idle,
    installer: () => u.installerName,
    async apply(bundle) {
      u.applied.push(bundle);
      // As the console's updater does: the installed record names the new version from now on.
      current = bundle.version;
      return { ok: true };
    },
  };
  return u;
}

/** Hosts a bundle on the emulator and points the channel at it; returns the pointer body. */
async function publish(
  version: string,
  files: Record<string, string>,
  options: { corrupt?: string; force?: boolean; channel?: string } = {},
) {
  const listed = Object.entries(files).map(([name, content]) => {
    const url = h.emu.hostFile(`/fw/${version}/${name}`, name === options.corrupt ? `${content}!` : content);
    return { name, sha256: sha(content), url };
  });
  const manifest = JSON.stringify({ version, files: listed });
  const url = h.emu.hostFile(`/fw/${version}/manifest.json`, manifest, 'application/json');
  const out = await h.owned('POST', '/api/firmware/manifest', {
    channel: options.channel ?? 'stable',
    version,
    url,
    sha256: sha(manifest),
    ...(options.force ? { force: true } : {}),
  });
  expect(out.status).toBe(200);
}

/** A client with the updater; the operator has allowed installs unless `allowed` is false. */
async function startWith(u: TestUpdater, allowed = true) {
  h = await startHarness({ deps: { firmware: { updater: u } } });
  if (allowed) expect((await h.client.setFirmwareInstall(true)).ok).toBe(true);
  return h;
}

describe('firmware pointer', () => {
  it('verifies and stages a newer bundle, then applies it only when idle and allowed', async () => {
    const u = updater();
    await startWith(u);
    await publish('1.1.0', { 'app.js': 'console.log(1)', 'assets/logo.svg': '<svg/>' });
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({
      state: 'staged',
      staged: '1.1.0',
      available: '1.1.0',
      currentVersion: '1.0.0',
    });
    const dir = join(h.dataDir, 'firmware', 'staged', '1.1.0');
    expect(await readFile(join(dir, 'files', 'assets', 'logo.svg'), 'utf8')).toBe('<svg/>');
    expect((await readdir(dir)).sort()).toEqual(['files', 'manifest.json']);
    expect(u.applied).toHaveLength(0);

    await h.sched.advance(60_000);
    expect(u.applied).toHaveLength(0);
    expect(h.client.status().firmware.message).toBe('staged; waiting for the robot to be idle');
    u.idle = true;
    await h.client.setFirmwareInstall(false);
    await h.sched.advance(60_000);
    expect(u.applied).toHaveLength(0);
    expect(h.client.status().firmware).toMatchObject({
      installAllowed: false,
      message: 'staged; installing waits for the operator to allow it',
    });
    await h.client.setFirmwareInstall(true);
    await h.sched.advance(60_000);
    expect(u.applied).toHaveLength(1);
    expect(u.applied[0]).toMatchObject({ version: '1.1.0', dir, force: false });
    expect(h.client.status().firmware).toMatchObject({ state: 'applied', staged: null, currentVersion: '1.1.0' });
    const { message: restart, lastCheckedAt: checked } = h.client.status().firmware;
    // The install runs at the next start: the next hourly poll, which finds nothing newer, keeps
    // saying so. (An hour of the relay's 5 s polls and the heartbeats is some 900 emulator requests.)
    await h.sched.advance(HOUR);
    expect(h.client.status().firmware.lastCheckedAt).toBeGreaterThan(checked ?? Infinity);
    expect(h.client.status().firmware).toMatchObject({ state: 'applied', currentVersion: '1.1.0', message: restart });
    // The owner's event ring hears of it (device_note).
    expect(h.emu.ctx.state.events.filter((e) => e.kind === 'device_note').map((e) => e.detail)).toEqual([
      { device: h.device.deviceId, detail: 'installed firmware 1.1.0' },
    ]);
  });

  it('does not install a bundle whose download finished after the platform link was switched off', async () => {
    const u = updater();
    u.idle = true;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let downloading = false;
    h = await startHarness({
      deps: {
        firmware: { updater: u },
        // The bundle's file is on its way when the operator switches the link off.
        fetch: async (input, init) => {
          if (new URL(input).pathname === '/fw/1.1.0/app.js') {
            downloading = true;
            await held;
          }
          return fetch(input, init);
        },
      },
    });
    expect((await h.client.setFirmwareInstall(true)).ok).toBe(true);
    await publish('1.1.0', { 'app.js': 'console.log(1)' });
    await h.client.start();
    const firstWindow = h.sched.advance(0);
    await eventually(() => downloading, { what: 'the bundle download to start' });
    await h.client.disconnect();
    release();
    // The manual clock's first window ends once that tick has (test/manual-scheduler.ts).
    await firstWindow;
    expect(u.applied).toEqual([]);
    expect(h.client.status().firmware).toMatchObject({ state: 'staged', currentVersion: '1.0.0' });
    // Linked again, it installs at once: the robot is idle and the operator allowed it.
    h.client.connect();
    await h.sched.advance(0);
    expect(u.applied).toMatchObject([{ version: '1.1.0' }]);
  });

  it('keeps a bundle staged while the console has no installer, and reports an install that fails', async () => {
    const u = updater();
    u.idle = true;
    u.installerName = null;
    await startWith(u);
    await publish('1.1.0', { 'app.js': 'x' });
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({
      state: 'staged',
      installer: null,
      message: 'staged; this console has no installer for it',
    });
    expect(u.applied).toHaveLength(0);
    u.installerName = 'hook /bin/false';
    u.apply = () => Promise.reject(new Error('hook exited with code 1'));
    await h.sched.advance(60_000);
    expect(h.client.status().firmware).toMatchObject({
      state: 'failed',
      installer: 'hook /bin/false',
      message: 'install failed: hook exited with code 1',
    });
  });

  it('keeps the channel and the install consent across restarts, and refuses a bad channel', async () => {
    const u = updater();
    await startWith(u, false);
    await h.client.start();
    expect(h.client.status().firmware).toMatchObject({ channel: 'stable', installAllowed: false });
    expect((await h.client.setFirmwareChannel('beta')).ok).toBe(true);
    expect((await h.client.setFirmwareInstall(true)).ok).toBe(true);
    expect(await h.client.setFirmwareChannel('Not A Channel')).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request' },
    });
    const again = createPlatformClient({
      secrets: createMemorySecretStore(),
      dataDir: h.dataDir,
      log: { debug() {}, info() {}, warn() {}, error() {} },
      capabilities: () => [],
      runFleetTurn: () => Promise.reject(new Error('unused')),
      notify: () => {},
      firmware: { updater: u },
    });
    await again.start();
    expect(again.status().firmware).toMatchObject({ channel: 'beta', installAllowed: true });
    await again.disconnect();
  });

  it('refuses a bundle whose file does not match its sha256 and stages nothing', async () => {
    const u = updater();
    u.idle = true;
    await startWith(u);
    await publish('1.2.0', { 'app.js': 'good' }, { corrupt: 'app.js' });
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({
      state: 'failed',
      staged: null,
      message: expect.stringMatching(/app\.js does not match its sha256/),
    });
    expect(await readdir(join(h.dataDir, 'firmware')).catch(() => [])).not.toContain('staged');
    expect(u.applied).toHaveLength(0);
    // The refused bundle is not downloaded again on the next poll.
    const fetches = h.attempts.filter((a) => a.path.startsWith('/fw/')).length;
    await h.sched.advance(HOUR);
    expect(h.attempts.filter((a) => a.path.startsWith('/fw/')).length).toBe(fetches);
  });

  it('refuses a manifest that does not hash to the pointer', async () => {
    const u = updater();
    await startWith(u);
    const manifest = JSON.stringify({ version: '1.3.0', files: [] });
    const url = h.emu.hostFile('/fw/m.json', manifest);
    await h.owned('POST', '/api/firmware/manifest', {
      channel: 'stable',
      version: '1.3.0',
      url,
      sha256: sha('something else'),
    });
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({
      state: 'failed',
      message: 'manifest sha256 does not match the pointer',
    });
  });

  it('refuses a manifest that is JSON but not an object, or lists files that are not objects', async () => {
    const u = updater();
    await startWith(u);
    await h.client.start();
    // Each on a channel of its own, so that choosing the channel asks for it at once.
    for (const [channel, manifest, message] of [
      ['odd-null', 'null', 'manifest is not a JSON object'],
      ['odd-list', '[1, 2]', 'manifest is not a JSON object'],
      ['odd-files', JSON.stringify({ version: '1.3.0', files: [null] }), 'manifest has an unsafe file name'],
    ] as const) {
      const url = h.emu.hostFile(`/fw/${channel}.json`, manifest);
      const pointer = { channel, version: '1.3.0', url, sha256: sha(manifest) };
      expect((await h.owned('POST', '/api/firmware/manifest', pointer)).status).toBe(200);
      expect(await h.client.setFirmwareChannel(channel)).toEqual({ ok: true, value: undefined });
      await h.sched.advance(0);
      expect(h.client.status().firmware, manifest).toMatchObject({ state: 'failed', message });
    }
  });

  it('says why when the bundle cannot be written here, tries again, and leaves no half-staged folder', async () => {
    const u = updater();
    await startWith(u);
    // A file where the staged folder goes: the download verifies, then promoting it fails.
    await mkdir(join(h.dataDir, 'firmware'), { recursive: true });
    await writeFile(join(h.dataDir, 'firmware', 'staged'), 'in the way');
    await publish('1.1.0', { 'app.js': 'console.log(1)' });
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^could not stage it here: E(EXIST|NOTDIR)/),
    });
    expect((await readdir(join(h.dataDir, 'firmware'))).filter((n) => n.startsWith('.incoming-'))).toEqual([]);
    await rm(join(h.dataDir, 'firmware', 'staged'));
    await h.sched.advance(60_000);
    expect(h.client.status().firmware).toMatchObject({ state: 'staged', staged: '1.1.0' });
  });

  it('refuses a downgrade unless the pointer is forced', async () => {
    const u = updater('2.0.0');
    u.idle = true;
    await startWith(u);
    await publish('1.9.0', { 'app.js': 'old' });
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({ state: 'refused', available: '1.9.0' });
    expect(h.attempts.some((a) => a.path.startsWith('/fw/'))).toBe(false);

    await publish('1.9.0', { 'app.js': 'old' }, { force: true });
    await h.sched.advance(HOUR);
    expect(u.applied.map((b) => [b.version, b.force])).toEqual([['1.9.0', true]]);
  });

  it('retries a transient failure (503 retryable) after 1, 2, 4 min instead of an hour; a 401 waits the hour', async () => {
    const u = updater();
    await startWith(u);
    h.emu.setWorkerDown(true);
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({ state: 'failed', message: expect.stringMatching(/503/) });
    await h.sched.advance(7 * 60_000);
    expect(h.times('PUT', '/api/firmware/manifest')).toEqual([0, 60_000, 180_000, 420_000]);
    h.emu.setWorkerDown(false);
    await publish('1.1.0', { 'app.js': 'fixed' });
    await h.sched.advance(8 * 60_000);
    expect(h.client.status().firmware).toMatchObject({ state: 'staged', staged: '1.1.0' });
    expect(h.times('PUT', '/api/firmware/manifest').at(-1)).toBe(900_000);
  });

  it('treats a 401 from the firmware route as "stop asking": no early retry', async () => {
    const u = updater();
    await startWith(u);
    const row = h.emu.ctx.state.devices.get(h.device.deviceId)!;
    row.revoked = true;
    await h.client.start();
    await h.sched.advance(30 * 60_000);
    expect(h.times('PUT', '/api/firmware/manifest')).toEqual([0]);
    expect(h.client.status().firmware).toMatchObject({ state: 'failed' });
  });

  it('a platform without firmware routes (404 page) is "not offered", not a failure; asked hourly until it offers them', async () => {
    const u = updater();
    await startWith(u);
    h.emu.setFirmwareOffered(false);
    // Every error the status ever showed: a good heartbeat clears the field, so its last value proves nothing.
    const errors: string[] = [];
    h.client.onChange((s) => void (s.lastError && errors.push(s.lastError.message)));
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware).toMatchObject({
      state: 'unoffered',
      lastCheckedAt: h.sched.now(),
      message: 'this platform offers no firmware updates; it is asked again in 60 min',
    });
    expect(errors).toEqual([]);
    await h.sched.advance(30 * 60_000);
    expect(h.times('PUT', '/api/firmware/manifest')).toEqual([0]);
    h.emu.setFirmwareOffered(true);
    await publish('1.1.0', { 'app.js': 'offered now' });
    await h.sched.advance(30 * 60_000);
    expect(h.times('PUT', '/api/firmware/manifest')).toEqual([0, HOUR]);
    expect(h.client.status().firmware).toMatchObject({
      state: 'staged',
      staged: '1.1.0',
      message: 'staged; waiting for the robot to be idle',
    });
  });

  it('polls hourly, and at once on a channel change', async () => {
    const u = updater();
    await startWith(u);
    await h.client.start();
    await h.sched.advance(0);
    expect(h.client.status().firmware.state).toBe('up_to_date');
    await h.sched.advance(HOUR);
    expect(h.times('PUT', '/api/firmware/manifest')).toEqual([0, HOUR]);
    await publish('1.5.0', { 'app.js': 'beta' }, { channel: 'beta' });
    expect(await h.client.setFirmwareChannel('Beta!')).toMatchObject({ ok: false });
    expect(await h.client.setFirmwareChannel('beta')).toEqual({ ok: true, value: undefined });
    await h.sched.advance(0);
    const puts = h.emu.requests.filter((r) => r.method === 'PUT' && r.path === '/api/firmware/manifest');
    expect(puts.at(-1)?.body).toMatchObject({ channel: 'beta' });
    expect(h.client.status().firmware).toMatchObject({ channel: 'beta', staged: '1.5.0' });
  });
});
