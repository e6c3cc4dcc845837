/**
 * Installs a pinned `reachy-mini` into a cached virtual environment:
 * `<cache>/robot-cockpit/real-daemon/<version>/venv`, where `<cache>` is `ROBOT_REAL_DAEMON_CACHE`,
 * else `$XDG_CACHE_HOME`, else `~/.cache`. PyGObject has no wheel, so the venv is made by Debian's
 * own Python with `--system-site-packages` and reuses Debian's python3-gi and python3-cairo (the
 * daemon accepts PyGObject 3.42.2 to 3.46.0; without python3-cairo pip tries to build pycairo).
 * A marker file written last makes a half-finished install count as absent.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Debian's interpreter: its dist-packages carry the gi and cairo bindings the daemon needs. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** What Debian must provide; `.ci/run` installs these. */
export const DEBIAN_PACKAGES = [
  'python3-venv',
  'python3-gi',
  'python3-cairo',
  'gir1.2-gstreamer-1.0',
  'gir1.2-gst-plugins-base-1.0',
] as const;

export interface VenvPaths {
  root: string;
  python: string;
  daemon: string;
  marker: string;
}

export type Flavour = 'mockup' | 'mujoco';

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env['ROBOT_REAL_DAEMON_CACHE']) return env['ROBOT_REAL_DAEMON_CACHE'];
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'robot-cockpit', 'real-daemon');
}

export function venvPaths(version: string, flavour: Flavour = 'mockup', env: NodeJS.ProcessEnv = process.env): VenvPaths {
  const root = join(cacheRoot(env), version, flavour === 'mockup' ? 'venv' : 'venv-mujoco');
  return {
    root,
    python: join(root, 'bin', 'python'),
    daemon: join(root, 'bin', 'reachy-mini-daemon'),
    marker: join(root, 'installed.json'),
  };
}

/** True when an install of this version and flavour finished. */
export function isInstalled(paths: VenvPaths, version: string): boolean {
  if (!existsSync(paths.marker) || !existsSync(paths.daemon)) return false;
  try {
    return (JSON.parse(readFileSync(paths.marker, 'utf8')) as { version?: string }).version === version;
  } catch {
    return false;
  }
}

export interface InstallOptions {
  version: string;
  flavour?: Flavour;
  /** Where pip's and venv's output goes; defaults to this process's stderr. */
  output?: (chunk: string) => void;
  env?: NodeJS.ProcessEnv;
}

export class InstallError extends Error {
  override readonly name = 'InstallError';
}

/** Creates the venv and installs the pinned package, unless an earlier install finished. */
export async function ensureInstalled(options: InstallOptions): Promise<VenvPaths> {
  const flavour = options.flavour ?? 'mockup';
  const paths = venvPaths(options.version, flavour, options.env);
  if (isInstalled(paths, options.version)) return paths;
  if (!existsSync(SYSTEM_PYTHON)) {
    throw new InstallError(`${SYSTEM_PYTHON} is missing: install ${DEBIAN_PACKAGES.join(' ')}`);
  }
  const out = options.output ?? ((chunk: string) => process.stderr.write(chunk));
  rmSync(paths.root, { recursive: true, force: true });
  mkdirSync(paths.root, { recursive: true });
  await run(SYSTEM_PYTHON, ['-m', 'venv', '--system-site-packages', paths.root], out, 'create the venv');
  await run(SYSTEM_PYTHON, ['-c', 'import gi, cairo'], out, 'import Debian gi and cairo').catch(() => {
    throw new InstallError(`Debian's gi or cairo bindings are missing: install ${DEBIAN_PACKAGES.join(' ')}`);
  });
  const spec = `reachy-mini${flavour === 'mujoco' ? '[mujoco]' : ''}==${options.version}`;
  await run(paths.python, ['-m', 'pip', 'install', '--disable-pip-version-check', spec], out, `pip install ${spec}`);
  writeFileSync(paths.marker, JSON.stringify({ version: options.version, flavour, at: new Date().toISOString() }));
  return paths;
}

function run(cmd: string, args: string[], out: (chunk: string) => void, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => out(d.toString()));
    child.stderr.on('data', (d: Buffer) => out(d.toString()));
    child.on('error', (err) => reject(new InstallError(`could not ${what}: ${err.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new InstallError(`could not ${what} (exit ${code}); see the output above`)),
    );
  });
}
