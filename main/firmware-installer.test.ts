import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StagedBundle } from '../platform-client/index.ts';
import { createLog } from '../server/index.ts';
import { createConsoleUpdater, installedRecordPath, type InstallerOptions } from './firmware-installer.ts';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'installer-'))));
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

const quiet = createLog({ sink: () => {} });

function updater(extra: Partial<InstallerOptions> = {}) {
  return createConsoleUpdater({
    dataDir: join(dir, 'data'),
    hook: undefined,
    appImage: undefined,
    packageVersion: '0.1.0',
    busyReason: () => null,
    log: quiet,
    ...extra,
  });
}

/** A staged bundle with the named files, laid out as the platform client stages them. */
function staged(version: string, files: Record<string, string>): StagedBundle {
  const root = join(dir, 'staged', version);
  mkdirSync(join(root, 'files'), { recursive: true });
  return {
    version,
    dir: root,
    force: false,
    files: Object.entries(files).map(([name, content]) => {
      const path = join(root, 'files', name);
      writeFileSync(path, content);
      return { name, path, sha256: 'a'.repeat(64) };
    }),
  };
}

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('console firmware installer', () => {
  it('has no installer by default, and says how to get one', async () => {
    const u = updater();
    expect(u.installer()).toBeNull();
    expect(await u.apply(staged('1.0.0', { a: 'x' }))).toEqual({
      ok: false,
      message: 'this console has no installer (set ROBOT_FIRMWARE_HOOK)',
    });
    expect(u.currentVersion()).toBe('0.1.0');
  });

  it('is idle only when the cockpit names no reason', () => {
    let reason: string | null = 'a move is running';
    const u = updater({ busyReason: () => reason });
    expect(u.isIdle()).toBe(false);
    reason = null;
    expect(u.isIdle()).toBe(true);
  });

  it('runs the hook with the bundle dir and version, then records the install', async () => {
    const out = join(dir, 'ran.txt');
    const u = updater({ hook: script('ok.sh', `echo "$1 $2 $ROBOT_FIRMWARE_DIR" > ${out}`) });
    const bundle = staged('1.2.0', { 'addon.txt': 'new' });
    expect(u.installer()).toBe(`hook ${join(dir, 'ok.sh')}`);
    expect(await u.apply(bundle)).toEqual({ ok: true, message: 'installed 1.2.0; restart the console to run it' });
    expect(readFileSync(out, 'utf8').trim()).toBe(`${bundle.dir} 1.2.0 ${bundle.dir}`);
    expect(u.currentVersion()).toBe('1.2.0');
    const record = JSON.parse(readFileSync(installedRecordPath(join(dir, 'data')), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ version: '1.2.0', files: [{ name: 'addon.txt', sha256: 'a'.repeat(64) }] });
    // A restarted console reports the installed version.
    const again = updater();
    await again.load();
    expect(again.currentVersion()).toBe('1.2.0');
  });

  it('keeps the console’s secrets out of the hook’s environment', async () => {
    const out = join(dir, 'env.txt');
    vi.stubEnv('ROBOT_DEVICE_TOKEN', 'tind_secret-device-token');
    vi.stubEnv('ROBOT_MODEL_KEY', 'sk-secret');
    vi.stubEnv('ROBOT_LOG_LEVEL', 'debug');
    try {
      const u = updater({ hook: script('env.sh', `env > ${out}`) });
      expect((await u.apply(staged('1.2.1', { a: 'x' }))).ok).toBe(true);
    } finally {
      vi.unstubAllEnvs();
    }
    const env = readFileSync(out, 'utf8');
    expect(env).not.toMatch(/secret/);
    expect(env).toMatch(/^ROBOT_LOG_LEVEL=debug$/m);
    expect(env).toMatch(/^ROBOT_FIRMWARE_VERSION=1\.2\.1$/m);
  });

  it('reports a failing hook by its exit code and last line, recording nothing', async () => {
    const u = updater({ hook: script('fail.sh', 'echo "checking"; echo "dpkg: error: disk full" >&2; exit 3') });
    expect(await u.apply(staged('1.3.0', { a: 'x' }))).toEqual({
      ok: false,
      message: 'the hook exited with code 3: dpkg: error: disk full',
    });
    expect(u.currentVersion()).toBe('0.1.0');
    expect(() => readFileSync(installedRecordPath(join(dir, 'data')))).toThrow(/ENOENT/);
  });

  it('kills a hook that runs past its budget', async () => {
    const u = updater({ hook: script('slow.sh', 'sleep 30'), hookTimeoutMs: 200 });
    expect(await u.apply(staged('1.4.0', { a: 'x' }))).toEqual({ ok: false, message: 'the hook timed out after 0 s' });
  });

  it('reports a hook that cannot be run', async () => {
    const u = updater({ hook: join(dir, 'missing.sh') });
    expect(await u.apply(staged('1.4.1', { a: 'x' }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^the hook could not run: .*ENOENT/),
    });
  });

  it('replaces the running AppImage with the bundle’s one, executable, and asks for a restart', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const appImage = join(dir, 'Robot-Cockpit.AppImage');
    writeFileSync(appImage, 'old build');
    const restart = vi.fn();
    const u = updater({ appImage, restart });
    expect(u.installer()).toBe(`AppImage ${appImage}`);
    const out = await u.apply(staged('2.0.0', { 'Robot-Cockpit-2.0.0.AppImage': 'new build', 'notes.txt': 'hi' }));
    expect(out).toEqual({ ok: true, message: 'installed 2.0.0; restarting' });
    expect(readFileSync(appImage, 'utf8')).toBe('new build');
    expect(statSync(appImage).mode & 0o777).toBe(0o755);
    expect(restart).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    expect(restart).toHaveBeenCalledOnce();
  });

  it('refuses an AppImage install without exactly one .AppImage in the bundle', async () => {
    const appImage = join(dir, 'Robot-Cockpit.AppImage');
    writeFileSync(appImage, 'old build');
    const u = updater({ appImage });
    expect(await u.apply(staged('2.1.0', { 'notes.txt': 'hi' }))).toEqual({
      ok: false,
      message: 'the bundle holds 0 .AppImage files; one is needed',
    });
    expect(readFileSync(appImage, 'utf8')).toBe('old build');
  });
});
