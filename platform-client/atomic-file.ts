/**
 * Crash-safe writes for this library's own files (docs/architecture.md, "Configuration and persistence"): temp file in the same
 * folder, fsync, rename over the target, fsync the folder. server/store has its own copy, but
 * platform-client may not import server/ (docs/architecture.md, "Folders and the direction of imports"), so the few lines live here too.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner-only file mode for secrets and staged bundles. */
export const SECRET_FILE_MODE = 0o600;
/** Owner-only folder mode. */
export const SECRET_DIR_MODE = 0o700;

/** Creates a folder owner-only when missing (an existing folder keeps its mode). */
export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: SECRET_DIR_MODE });
}

/** Replaces `file` with `data` atomically, mode 0600; resolves once the new bytes are durable. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(file);
  await ensureDir(dir);
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', SECRET_FILE_MODE);
  try {
    await handle.writeFile(data);
    // The umask may have narrowed the mode at open; set it exactly (a 0600 file).
    await handle.chmod(SECRET_FILE_MODE);
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

/** Fsyncs a folder so a rename inside it survives a power cut; platforms that refuse are tolerated. */
async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open or fsync a folder; the rename is then as durable as the OS allows.
  } finally {
    await handle?.close();
  }
}
