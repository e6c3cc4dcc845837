#!/usr/bin/env node
/**
 * Type-checks the Electron main process (tsconfig.electron.json) against the real Electron API.
 *
 * `electron` is an optional dependency whose install downloads a binary from GitHub; where that
 * fails the package is absent, and with it electron.d.ts. The typings do not need the binary:
 * the same version's npm tarball carries electron.d.ts. So this uses, in order:
 *   1. node_modules/electron/electron.d.ts, when the installed version is the pinned one;
 *   2. a cached copy in node_modules/.cache/electron-types/electron/ of the pinned version;
 *   3. `npm pack electron@<pinned>` into a temporary folder, keeping only electron.d.ts (cached).
 * It then runs tsc over a generated config that extends tsconfig.electron.json and maps the
 * module `electron` to those typings. Exit status: tsc's (non-zero on any type error), or 2 when
 * no typings could be had.
 *
 * Usage: node scripts/typecheck-electron.mjs [--emit]   (--emit also writes dist/, as the build)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'electron-types');
const CACHED_PACKAGE = join(CACHE, 'electron');
const emit = process.argv.includes('--emit');
const say = (line) => process.stdout.write(`typecheck-electron: ${line}\n`);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The Electron version package.json pins (optional dependency, or dev dependency). */
function pinnedVersion() {
  const pkg = readJson(join(ROOT, 'package.json')) ?? {};
  const version = pkg.optionalDependencies?.electron ?? pkg.devDependencies?.electron ?? pkg.dependencies?.electron;
  if (!/^\d+\.\d+\.\d+$/.test(version ?? ''))
    throw new Error(`package.json must pin electron to an exact version (found ${version})`);
  return version;
}

/** A folder holding electron.d.ts of `version` and a package.json naming it, or undefined. */
function usablePackage(dir, version) {
  const pkg = readJson(join(dir, 'package.json'));
  return pkg?.version === version && existsSync(join(dir, 'electron.d.ts')) ? dir : undefined;
}

function npm(args, cwd) {
  // npm is a .cmd script on Windows, which only a shell runs.
  return spawnSync('npm', args, { cwd, encoding: 'utf8', shell: process.platform === 'win32' });
}

/** Fetches the version's tarball from the registry and keeps electron.d.ts in the cache. */
function fetchTypings(version) {
  const temp = mkdtempSync(join(tmpdir(), 'electron-types-'));
  try {
    say(`fetching the typings of electron@${version} from the npm registry (npm pack; no binary is downloaded)`);
    const packed = npm(['pack', `electron@${version}`, '--pack-destination', temp, '--json', '--silent'], temp);
    if (packed.status !== 0) throw new Error(`npm pack electron@${version} failed:\n${packed.stderr || packed.stdout}`);
    const [{ filename }] = JSON.parse(packed.stdout);
    const untar = spawnSync('tar', ['-xzf', join(temp, filename), '-C', temp, 'package/electron.d.ts'], {
      encoding: 'utf8',
    });
    if (untar.status !== 0) throw new Error(`could not extract electron.d.ts from ${filename}: ${untar.stderr}`);
    mkdirSync(CACHED_PACKAGE, { recursive: true });
    copyFileSync(join(temp, 'package', 'electron.d.ts'), join(CACHED_PACKAGE, 'electron.d.ts'));
    // Written last: a cache with this file is complete.
    writeFileSync(
      join(CACHED_PACKAGE, 'package.json'),
      `${JSON.stringify({ name: 'electron', version, types: 'electron.d.ts' }, null, 2)}\n`,
    );
    say(`cached ${relative(ROOT, join(CACHED_PACKAGE, 'electron.d.ts'))}`);
    return CACHED_PACKAGE;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

function typingsFor(version) {
  const installed = usablePackage(join(ROOT, 'node_modules', 'electron'), version);
  if (installed) {
    say(`using the installed node_modules/electron/electron.d.ts (electron ${version})`);
    return installed;
  }
  const cached = usablePackage(CACHED_PACKAGE, version);
  if (cached) {
    say(`using the cached typings of electron ${version} (${relative(ROOT, cached)})`);
    return cached;
  }
  return fetchTypings(version);
}

/** A config extending tsconfig.electron.json whose `electron` module is the chosen typings. */
function writeConfig(typingsDir) {
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, 'tsconfig.electron.json');
  const config = {
    extends: join(ROOT, 'tsconfig.electron.json'),
    compilerOptions: {
      noEmit: !emit,
      paths: { electron: [join(typingsDir, 'electron.d.ts')] },
    },
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

function main() {
  const version = pinnedVersion();
  const config = writeConfig(typingsFor(version));
  say(
    `tsc -p tsconfig.electron.json${emit ? ' (emitting dist/)' : ' --noEmit'} with electron → electron ${version} typings`,
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: ROOT, stdio: 'inherit' });
  say(run.status === 0 ? 'no type errors' : `tsc failed (exit ${run.status ?? run.signal})`);
  process.exit(run.status ?? 1);
}

try {
  main();
} catch (err) {
  process.stderr.write(`typecheck-electron: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
