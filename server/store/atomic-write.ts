/**
 * Crash-safe file replacement (docs/architecture.md, "Configuration and persistence"): whatever instant the process dies at, the
 * target holds either the old bytes or the new bytes, never a mix.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner-only modes: the data dir holds credentials and keys (docs/architecture.md, "Configuration and persistence"). */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

const TEMP_SUFFIX = '.tmp';

function tempPrefix(file: string): string {
  return `.${basename(file)}.`;
}

/** Creates the folder (and parents) owner-only when missing; an existing folder keeps its mode. */
export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
}

/**
 * Writes `data` to `file` atomically: a temp file in the same folder (so the rename cannot cross
 * file systems), written and fsynced, renamed over the target, then the folder fsynced so the
 * rename itself survives a power cut. Resolves only once the new content is durable.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(file);
  await ensureDir(dir);
  const temp = join(dir, `${tempPrefix(file)}${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const handle = await open(temp, 'wx', FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
}

/**
 * Fsyncs a folder so a rename or create inside it is durable. Some platforms (Windows) refuse to
 * open or sync a folder; there the rename is as durable as the OS makes it, so the refusal is
 * not an error.
 */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!isUnsupportedDirSync(error)) throw error;
  } finally {
    await handle?.close();
  }
}

function isUnsupportedDirSync(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EISDIR' || code === 'EPERM' || code === 'EINVAL' || code === 'EACCES';
}

/**
 * Deletes temp files a killed writer left behind for `file`. They never hold the only copy of
 * anything: the rename had not happened, so the target still has the previous content.
 */
export async function removeStaleTemps(file: string): Promise<void> {
  const dir = dirname(file);
  const prefix = tempPrefix(file);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const stale = names.filter((n) => n.startsWith(prefix) && n.endsWith(TEMP_SUFFIX));
  await Promise.all(stale.map((n) => rm(join(dir, n), { force: true })));
}

/** `<file>.corrupt-<timestamp>`, the name a damaged file is moved to (never silently replaced). */
export function corruptName(file: string, now: number): string {
  return `${file}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}

/** Moves a damaged file aside and returns where it went. */
export async function setAside(file: string, now: number): Promise<string> {
  let target = corruptName(file, now);
  // Two corruptions within one millisecond would collide; never overwrite an earlier copy.
  for (let n = 1; await exists(target); n += 1) target = `${corruptName(file, now)}-${n}`;
  await rename(file, target);
  await syncDir(dirname(file));
  return target;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
