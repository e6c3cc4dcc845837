/**
 * The console's side of a firmware update: the platform client verifies and
 * stages a bundle; this installs it. How depends on the host:
 *
 * - `ROBOT_FIRMWARE_HOOK`: an executable of the owner's, run as `<hook> <bundle dir> <version>`
 *   (a package manager call, a copy into a service's folder…); exit 0 means installed.
 * - Running as the packaged AppImage (`$APPIMAGE`), a bundle holding one `.AppImage` replaces
 *   the running file (renamed over it: the running copy keeps its inode until it exits).
 * - Otherwise the console has no installer: bundles stay staged and the dashboard says so.
 *
 * What was installed is recorded in `<data dir>/firmware/installed.json`, which is the robot's
 * current version from then on. The robot must be idle: a move, a turn, speech or a person in
 * the last minute defer the install (the cockpit's busyReason). A restart runs the new version:
 * the desktop app relaunches itself; a headless host's service manager (or the hook) does it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FirmwareUpdater, StagedBundle } from '../platform-client/index.ts';
import { writeFileAtomic, type Log } from '../server/index.ts';

export interface InstallerOptions {
  dataDir: string;
  /** ROBOT_FIRMWARE_HOOK. */
  hook: string | undefined;
  /** The running AppImage's path ($APPIMAGE), when the app runs as one. */
  appImage: string | undefined;
  /** The version of the running code, until a bundle is installed. */
  packageVersion: string;
  busyReason: () => string | null;
  /** Relaunches the app (the desktop shell); absent on headless hosts. */
  restart?: () => void;
  log: Log;
  hookTimeoutMs?: number;
}

export interface ConsoleUpdater extends FirmwareUpdater {
  /** Reads installed.json; call before handing the updater to the platform client. */
  load(): Promise<void>;
}

interface InstalledRecord {
  version: string;
  installedAt: string;
  installer: string;
  files: Array<{ name: string; sha256: string }>;
}

type Installed = { ok: true } | { ok: false; message: string };

const HOOK_TIMEOUT_MS = 10 * 60_000;
/** Time for the `applied` status to reach the dashboards before the app goes down. */
const RESTART_DELAY_MS = 2_000;
const OUTPUT_TAIL = 2_000;

export function installedRecordPath(dataDir: string): string {
  return join(dataDir, 'firmware', 'installed.json');
}

/** The hook's environment: the console's, without its secrets (a hook installs files, it needs no token). */
function hookEnv(bundle: StagedBundle): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^ROBOT_.*(TOKEN|KEY|SECRET)/.test(key)),
  );
  return { ...env, ROBOT_FIRMWARE_DIR: bundle.dir, ROBOT_FIRMWARE_VERSION: bundle.version };
}

/** Runs the hook; its last output line explains a failure. */
function runHook(hook: string, bundle: StagedBundle, timeoutMs: number): Promise<Installed> {
  return new Promise((resolve) => {
    let tail = '';
    // Its own process group, so a timeout also ends whatever the hook started (they hold its pipes).
    const child = spawn(hook, [bundle.dir, bundle.version], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      env: hookEnv(bundle),
    });
    const keep = (chunk: Buffer) => void (tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    const last = () => tail.trim().split('\n').pop()?.trim() ?? '';
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, message: `the hook could not run: ${error.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && !timedOut) return resolve({ ok: true });
      const why = timedOut
        ? `timed out after ${Math.round(timeoutMs / 1000)} s`
        : signal
          ? `was killed by ${signal}`
          : `exited with code ${code}`;
      resolve({ ok: false, message: `the hook ${why}${last() ? `: ${last()}` : ''}` });
    });
  });
}

/** Replaces the running AppImage with the bundle's one. */
async function swapAppImage(target: string, bundle: StagedBundle): Promise<Installed> {
  const images = bundle.files.filter((f) => f.name.endsWith('.AppImage'));
  if (images.length !== 1 || !images[0])
    return { ok: false, message: `the bundle holds ${images.length} .AppImage files; one is needed` };
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.new`);
  try {
    await copyFile(images[0].path, temp);
    await chmod(temp, 0o755);
    await rename(temp, target);
    return { ok: true };
  } catch (error) {
    await rm(temp, { force: true });
    return { ok: false, message: `could not replace ${target}: ${(error as Error).message}` };
  }
}

export function createConsoleUpdater(o: InstallerOptions): ConsoleUpdater {
  let current = o.packageVersion;
  const installer = (): string | null =>
    o.hook ? `hook ${o.hook}` : o.appImage ? `AppImage ${o.appImage}` : null;
  return {
    async load() {
      try {
        const record = JSON.parse(await readFile(installedRecordPath(o.dataDir), 'utf8')) as Partial<InstalledRecord>;
        if (typeof record.version === 'string' && record.version !== '') current = record.version;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          o.log.warn('installed.json is unreadable; reporting the package version', { error: String(error) });
      }
    },
    currentVersion: () => current,
    isIdle: () => o.busyReason() === null,
    installer,
    async apply(bundle) {
      const how = installer();
      if (!how) return { ok: false, message: 'this console has no installer (set ROBOT_FIRMWARE_HOOK)' };
      o.log.info('installing a firmware bundle', { version: bundle.version, installer: how });
      const done = o.hook
        ? await runHook(o.hook, bundle, o.hookTimeoutMs ?? HOOK_TIMEOUT_MS)
        : await swapAppImage(o.appImage as string, bundle);
      if (!done.ok) return done;
      const record: InstalledRecord = {
        version: bundle.version,
        installedAt: new Date().toISOString(),
        installer: how,
        files: bundle.files.map((f) => ({ name: f.name, sha256: f.sha256 })),
      };
      await writeFileAtomic(installedRecordPath(o.dataDir), `${JSON.stringify(record, null, 2)}\n`);
      current = bundle.version;
      if (!o.restart) return { ok: true, message: `installed ${bundle.version}; restart the console to run it` };
      setTimeout(() => o.restart?.(), RESTART_DELAY_MS).unref();
      return { ok: true, message: `installed ${bundle.version}; restarting` };
    },
  };
}
