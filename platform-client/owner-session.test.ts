import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlatformClient } from './platform-client.ts';
import { createFileSecretStore } from './secret-store.ts';
import { startHarness, type Harness } from './test/client-harness.ts';

let h: Harness;
afterEach(() => h?.close());

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Another client over the same data dir, as after a restart. */
function restarted(extra: { envOwnerSession?: string } = {}) {
  return createPlatformClient({
    secrets: createFileSecretStore({ dir: join(h.dataDir, 'secrets') }),
    dataDir: h.dataDir,
    log: quiet,
    envIdentity: { platformUrl: h.emu.url, ...h.device },
    capabilities: () => [],
    runFleetTurn: () => Promise.reject(new Error('unused')),
    notify: () => {},
    ...extra,
  });
}

describe('owner session for use_device', () => {
  it('is proved on the platform, stored 0600 and never shown, and survives a restart', async () => {
    h = await startHarness();
    await h.client.start();
    await h.client.disconnect();
    expect(h.client.status().ownerSession).toBeNull();
    const out = await h.client.setOwnerSession(`  ${h.owner.session}  `);
    expect(out).toMatchObject({ ok: true, value: { ownerSession: 'stored' } });
    expect(JSON.stringify(h.client.status())).not.toContain(h.owner.session);
    expect(h.attempts.some((a) => a.method === 'GET' && a.path === '/api/devices')).toBe(true);
    const file = join(h.dataDir, 'secrets', 'platform-owner-session.secret');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ platformUrl: h.emu.url, token: h.owner.session });

    const again = restarted();
    await again.start();
    await again.disconnect();
    expect(again.status().ownerSession).toBe('stored');
    const listed = await again.useDeviceTool.run({ action: 'list' }, {});
    expect(listed).toMatchObject({ ok: true, devices: [expect.objectContaining({ id: h.device.deviceId, self: true })] });
  });

  it('refuses a token the platform refuses, or a malformed one, and stores nothing', async () => {
    h = await startHarness();
    await h.client.start();
    await h.client.disconnect();
    expect(await h.client.setOwnerSession('tcli_not-a-real-session-token')).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request', message: expect.stringMatching(/refused this session token/) },
    });
    expect(await h.client.setOwnerSession('has spaces in it')).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request' },
    });
    expect(h.client.status().ownerSession).toBeNull();
  });

  it('needs an enrolled robot, and is forgotten with the identity', async () => {
    h = await startHarness({ enrolled: false });
    await h.client.start();
    expect(await h.client.setOwnerSession(h.owner.session)).toMatchObject({
      ok: false,
      failure: { message: expect.stringMatching(/enrol the robot first/) },
    });
    const enrolled = await h.client.enrol({ platformUrl: h.emu.url, ...h.device });
    expect(enrolled.ok).toBe(true);
    expect((await h.client.setOwnerSession(h.owner.session)).ok).toBe(true);
    await h.client.forget();
    expect(h.client.status().ownerSession).toBeNull();
    await expect(readFile(join(h.dataDir, 'secrets', 'platform-owner-session.secret'))).rejects.toThrow(/ENOENT/);
  });

  it('enrols with the session token, keeping it for use_device only when asked', async () => {
    h = await startHarness({ enrolled: false });
    await h.client.start();
    const heard: Array<{ enrolled: boolean; ownerSession: string | null }> = [];
    h.client.onChange((s) => heard.push({ enrolled: s.enrolled, ownerSession: s.ownerSession }));
    const kept = await h.client.enrolWithSession({
      platformUrl: h.emu.url,
      sessionToken: h.owner.session,
      name: 'desk robot',
      keepSession: true,
    });
    expect(kept).toMatchObject({ ok: true, value: { enrolled: true, ownerSession: 'stored' } });
    // The first status of the enrolled robot already says so: a dashboard never sees it without.
    expect(heard.find((x) => x.enrolled)).toEqual({ enrolled: true, ownerSession: 'stored' });
    const devices = (await h.owned('GET', '/api/devices')).body.devices as Array<{ name: string }>;
    expect(devices.map((d) => d.name)).toContain('desk robot');
    await h.client.forget();
    const once = await h.client.enrolWithSession({
      platformUrl: h.emu.url,
      sessionToken: h.owner.session,
      name: 'desk robot 2',
    });
    expect(once).toMatchObject({ ok: true, value: { enrolled: true, ownerSession: null } });
    await h.client.disconnect();
  });

  it('takes the environment token for the environment platform, which the dashboard cannot replace', async () => {
    h = await startHarness();
    const client = restarted({ envOwnerSession: h.owner.session });
    await client.start();
    await client.disconnect();
    expect(client.status().ownerSession).toBe('env');
    expect(await client.setOwnerSession(h.owner.session)).toMatchObject({
      ok: false,
      failure: { message: expect.stringMatching(/ROBOT_PLATFORM_SESSION_TOKEN/) },
    });
    expect(await client.useDeviceTool.run({ action: 'list' }, {})).toMatchObject({ ok: true });
  });
});
