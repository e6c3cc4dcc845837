/**
 * Move lengths from the daemon's own move files, when they are on this computer. The daemon plays
 * recorded moves from Hugging Face datasets kept in the hub cache (docs/daemon.md, "Move
 * libraries"): `<hub>/datasets--<org>--<name>/snapshots/<revision>/<move>.json`, newer datasets
 * under `data/`, each with a `time` array in seconds and one `set_target_data` entry per sample.
 * The daemon's length of a move is entries × (last time − first time) / times; it is read the
 * same way here, so the Moves page says what the robot will do.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/** Where the hub cache is, by the variables the daemon's hub library reads. */
export function hubCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env['HF_HUB_CACHE']) return env['HF_HUB_CACHE'];
  if (env['HF_HOME']) return join(env['HF_HOME'], 'hub');
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'huggingface', 'hub');
}

/** The revision the cache's `refs/main` names, else the newest snapshot folder; null when none. */
async function snapshotOf(datasetDir: string): Promise<string | null> {
  const snapshots = join(datasetDir, 'snapshots');
  const ref = await readFile(join(datasetDir, 'refs', 'main'), 'utf8').catch(() => null);
  if (ref && (await stat(join(snapshots, ref.trim())).catch(() => null))) return join(snapshots, ref.trim());
  const names = await readdir(snapshots).catch(() => [] as string[]);
  const dated = await Promise.all(names.map(async (n) => ({ n, at: (await stat(join(snapshots, n))).mtimeMs })));
  const newest = dated.sort((a, b) => b.at - a.at)[0];
  return newest ? join(snapshots, newest.n) : null;
}

/** Seconds of one move file, as the daemon computes them; null for anything that is not a move. */
export function moveFileSeconds(value: unknown): number | null {
  if (typeof value !== 'object' || value === null) return null;
  const { time, set_target_data: samples } = value as { time?: unknown; set_target_data?: unknown };
  if (!Array.isArray(time) || !Array.isArray(samples) || time.length < 2) return null;
  const first = time[0];
  const last = time[time.length - 1];
  if (typeof first !== 'number' || typeof last !== 'number' || !(last > first)) return null;
  const seconds = (samples.length * (last - first)) / time.length;
  return Number.isFinite(seconds) ? seconds : null;
}

async function jsonFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.json')).map((n) => join(dir, n));
}

/**
 * Every move's seconds in one dataset (`org/name`) of the cache; empty when the dataset is not
 * there. Files are read one at a time: a library is a few dozen files of a few hundred KB.
 */
export async function readDatasetSeconds(hub: string, dataset: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const snapshot = await snapshotOf(join(hub, `datasets--${dataset.replace('/', '--')}`));
  if (!snapshot) return found;
  for (const file of [...(await jsonFiles(snapshot)), ...(await jsonFiles(join(snapshot, 'data')))]) {
    try {
      const seconds = moveFileSeconds(JSON.parse(await readFile(file, 'utf8')));
      if (seconds !== null) found.set(basename(file, '.json'), seconds);
    } catch {
      // Not a move file (a dataset's own metadata, or one half written): it has no length to show.
    }
  }
  return found;
}
