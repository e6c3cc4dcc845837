/**
 * The platform features that need the whole console: a firmware
 * bundle installed through ROBOT_FIRMWARE_HOOK once the operator allows it and the robot is
 * idle, and the owner's session token, stored from the dashboard, letting a dashboard Ask reach
 * another of the owner's devices through use_device. Real cockpit and simulator, real platform
 * client against the platform emulator, the fake OpenAI server as the model.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPlatformEmulator, type PlatformEmulator } from '../platform-client/test/platform-emulator.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../server/agent/providers/testing/fake-openai.ts';
import { COCKPIT_VERSION } from '../server/index.ts';
import type { ComposedCockpit } from './compose.ts';
import { installedRecordPath } from './firmware-installer.ts';
import { composeForTest, dashboard, removeDataDirs, TIMING, until } from './testing/compose-rig.ts';

let emu: PlatformEmulator;
let fake: FakeOpenAi;
let owner: { userId: string; session: string };
let scratch: string;

beforeAll(async () => {
  emu = await startPlatformEmulator();
  fake = await startFakeOpenAi();
  owner = emu.addUser('owner');
  scratch = mkdtempSync(join(tmpdir(), 'compose-platform-'));
});
afterAll(async () => {
  await emu.close();
  await fake.close();
  removeDataDirs();
  rmSync(scratch, { recursive: true, force: true });
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The owner points the stable channel at a bundle of one file hosted by the emulator. */
async function publish(version: string): Promise<void> {
  const content = `robot add-on ${version}`;
  const file = emu.hostFile(`/fw/${version}/addon.txt`, content);
  const manifest = JSON.stringify({ version, files: [{ name: 'addon.txt', sha256: sha(content), url: file }] });
  const url = emu.hostFile(`/fw/${version}/manifest.json`, manifest, 'application/json');
  const res = await fetch(`${emu.url}/api/firmware/manifest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'stable', version, url, sha256: sha(manifest) }),
  });
  expect(res.status).toBe(200);
}

function envFor(device: { deviceId: string; token: string }): Record<string, string> {
  return { ROBOT_PLATFORM_URL: emu.url, ROBOT_DEVICE_ID: device.deviceId, ROBOT_DEVICE_TOKEN: device.token };
}

describe('firmware through the console', () => {
  let c: ComposedCockpit;
  let ui: ReturnType<typeof dashboard>;
  const hookLog = () => join(scratch, 'hook-ran.txt');

  beforeAll(async () => {
    const hook = join(scratch, 'install-bundle.sh');
    writeFileSync(hook, '#!/bin/sh\necho "$1|$2|$ROBOT_FIRMWARE_VERSION|$(cat "$1/files/addon.txt")" >> "$(dirname "$0")/hook-ran.txt"\n');
    chmodSync(hook, 0o755);
    await publish('90.1.0');
    const device = emu.enrolDevice(owner.session, 'reachy-firmware');
    c = await composeForTest(
      { ...envFor(device), ROBOT_FIRMWARE_HOOK: hook },
      { platformTiming: { ...TIMING, firmwarePollMs: 400, firmwareApplyRetryMs: 100 } },
    );
    ui = dashboard(c);
    await ui.opened;
  });
  afterAll(async () => {
    ui.close();
    await c.stop();
  });

  const firmware = async () => (await ui.call('GET', '/api/console/platform')).json['firmware'] as Record<string, unknown>;

  it('stages a newer bundle and waits for the operator, naming the installer', async () => {
    expect(await until(async () => (await firmware())['state'] === 'staged')).toBe(true);
    expect(await firmware()).toMatchObject({
      staged: '90.1.0',
      currentVersion: COCKPIT_VERSION,
      installAllowed: false,
      installer: expect.stringMatching(/^hook .*install-bundle\.sh$/),
      message: 'staged; installing waits for the operator to allow it',
    });
  });

  it('installs through the hook once allowed while the robot is idle, and records the version', async () => {
    const allowed = await ui.call('PUT', '/api/console/platform/firmware', { installAllowed: true });
    expect(allowed.json).toMatchObject({ firmware: { installAllowed: true } });
    const applied = await until(async () => (await firmware())['state'] === 'applied');
    expect(applied ? 'applied' : JSON.stringify(await firmware())).toBe('applied');
    expect(await firmware()).toMatchObject({
      currentVersion: '90.1.0',
      message: 'installed 90.1.0; restart the console to run it',
    });
    const [dir, version, envVersion, content] = readFileSync(hookLog(), 'utf8').trim().split('|');
    expect(dir).toMatch(/firmware[/\\]staged[/\\]90\.1\.0$/);
    expect([version, envVersion, content]).toEqual(['90.1.0', '90.1.0', 'robot add-on 90.1.0']);
    expect(JSON.parse(readFileSync(installedRecordPath(c.config.dataDir), 'utf8'))).toMatchObject({
      version: '90.1.0',
      files: [{ name: 'addon.txt', sha256: sha('robot add-on 90.1.0') }],
    });
  });

  it('defers the next bundle while an operator is using the robot', async () => {
    expect((await ui.call('POST', '/api/control/antennas', { right: 10, left: -10 })).status).toBe(200);
    await publish('90.2.0');
    expect(
      await until(async () => {
        const f = await firmware();
        return f['staged'] === '90.2.0' && f['message'] === 'staged; waiting for the robot to be idle';
      }),
    ).toBe(true);
    // The barrier: the deferral asks the cockpit whether it is busy before each try; three more
    // answers of "busy" are three more tries that did not install.
    const asked = vi.spyOn(c.cockpit, 'busyReason');
    await until(() => asked.mock.results.filter((r) => r.type === 'return' && r.value !== null).length >= 3);
    asked.mockRestore();
    expect(await firmware()).toMatchObject({ state: 'staged', currentVersion: '90.1.0' });
    expect(readFileSync(hookLog(), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

describe('use_device with the owner session stored from the dashboard', () => {
  let c: ComposedCockpit;
  let ui: ReturnType<typeof dashboard>;
  let phone: { deviceId: string; token: string };

  beforeAll(async () => {
    const device = emu.enrolDevice(owner.session, 'reachy-fleet');
    phone = emu.enrolDevice(owner.session, 'phone');
    c = await composeForTest({
      ...envFor(device),
      ROBOT_MODEL_PROVIDER: 'openai',
      ROBOT_MODEL_BASE_URL: fake.url,
      ROBOT_MODEL: 'fake-model',
    });
    ui = dashboard(c);
    await ui.opened;
  });
  afterAll(async () => {
    ui.close();
    await c.stop();
    expect(ui.seen.join('\n')).not.toContain(owner.session);
  });

  const toolNames = (fleet: boolean) => c.cockpit.features.agent.runtime.toolsFor(fleet).map((t) => t.name);

  it('has no owner session at first, so use_device answers that none is configured', async () => {
    expect((await ui.call('GET', '/api/console/platform')).json).toMatchObject({ ownerSession: null });
    const tool = c.cockpit.features.agent.runtime.toolsFor(false).find((t) => t.name === 'use_device');
    const ctx = { signal: new AbortController().signal, fleet: false, persona: 'dashboard', credential: 'token' as const };
    expect(await tool?.run({ action: 'list' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no owner session/),
    });
  });

  it('refuses a session token the platform refuses, then stores the real one', async () => {
    const bad = await ui.call('PUT', '/api/console/platform/owner-session', { token: 'tcli_not-the-owner-token' });
    expect(bad).toMatchObject({ status: 400, json: { error: expect.stringMatching(/refused this session token/) } });
    const ok = await ui.call('PUT', '/api/console/platform/owner-session', { token: owner.session });
    expect(ok).toMatchObject({ status: 200, json: { ownerSession: 'stored' } });
  });

  it("lets a dashboard Ask invoke the owner's phone, never a fleet turn", async () => {
    fake.setScript((request) => {
      if (request.toolResults.length > 0) return { kind: 'answer', text: `Phone said: ${request.toolResults[0]?.content}` };
      if (request.lastUserText.includes('phone') && request.toolNames.includes('use_device'))
        return {
          kind: 'answer',
          toolCalls: [{ name: 'use_device', input: { action: 'invoke', device: 'phone', prompt: 'ring twice' } }],
        };
      return { kind: 'answer', text: 'no tool' };
    });
    expect(toolNames(false)).toContain('use_device');
    expect(toolNames(true)).not.toContain('use_device');
    // The phone's side: claim the envelope and answer it.
    const answered = (async () => {
      const relay = (method: string, body: unknown) =>
        fetch(`${emu.url}/api/devices/relay`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<{ messages?: Array<{ id: string; payload: string }> }>);
      let claimed: Array<{ id: string; payload: string }> = [];
      await until(async () => (claimed = (await relay('PUT', { ...phone, max: 5 })).messages ?? []).length > 0, 10_000);
      for (const m of claimed)
        await relay('PATCH', { ...phone, inReplyTo: m.id, payload: JSON.stringify({ result: 'ringing' }) });
      return claimed.map((m) => JSON.parse(m.payload) as Record<string, unknown>);
    })();
    const started = await ui.call('POST', '/api/control/ask', { prompt: 'ask my phone to ring' });
    expect(started.status).toBe(200);
    expect(await answered).toEqual([expect.objectContaining({ type: 'invoke', prompt: 'ring twice' })]);
    expect(
      await until(async () => String((await ui.call('GET', '/api/ask/last')).json['answer'] ?? '').includes('ringing'), 15_000),
    ).toBe(true);
  });

  it('forgets the owner session from the dashboard', async () => {
    expect((await ui.call('DELETE', '/api/console/platform/owner-session')).json).toMatchObject({ ownerSession: null });
  });
});
