/**
 * Kept recordings: their files in `<recordings>/kept/` and one index document beside them. They
 * live outside the ring's folder, so the ring never deletes or overwrites them, and the index
 * is written atomically, so they survive restarts and crashes.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { KeepReason, KeptRecording } from '../contract/recordings.ts';
import { AppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { ensureDir } from '../store/atomic-write.ts';
import { createJsonDocument, type JsonDocument } from '../store/json-document.ts';
import { describeFile } from './mcap-file.ts';
import { storageFailed } from '../store/storage-failed.ts';

export const RECORDING_ID = /^rec-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$/;
export const NAME_MAX = 80;

interface KeptIndex {
  recordings: KeptRecording[];
}

function isRecording(u: unknown): u is KeptRecording {
  if (typeof u !== 'object' || u === null) return false;
  const r = u as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    RECORDING_ID.test(r.id) &&
    typeof r.name === 'string' &&
    (r.reason === 'manual' || r.reason === 'stop') &&
    typeof r.keptAt === 'string' &&
    typeof r.startedAt === 'string' &&
    typeof r.endedAt === 'string' &&
    typeof r.seconds === 'number' &&
    typeof r.bytes === 'number' &&
    typeof r.messages === 'number'
  );
}

export interface KeptStore {
  load(): Promise<void>;
  list(): KeptRecording[];
  get(id: string): KeptRecording;
  /** Where a new recording's file goes, and its id. */
  reserve(now: number): { id: string; path: string };
  add(entry: KeptRecording): Promise<KeptRecording>;
  rename(id: string, name: string): Promise<KeptRecording>;
  remove(id: string): Promise<void>;
  fileOf(id: string): string;
  /**
   * The file of a listed recording, once it is known to be there: a file deleted by hand (to free
   * a full disk) leaves its entry listed, and reading it is then a 404 that says so.
   */
  readable(id: string): Promise<string>;
}

export function createKeptStore(options: { dir: string; log: Log; now: () => number }): KeptStore {
  const doc: JsonDocument<KeptIndex> = createJsonDocument({
    file: join(options.dir, 'kept.json'),
    defaults: () => ({ recordings: [] }),
    validate: (u) =>
      typeof u === 'object' && u !== null && Array.isArray((u as KeptIndex).recordings)
        ? { recordings: (u as KeptIndex).recordings.filter(isRecording) }
        : undefined,
    log: options.log,
    now: options.now,
  });
  /** Set once the index is read; a recorder that could not start lists nothing (recorder.ts). */
  let loaded = false;
  const recordings = (): readonly KeptRecording[] => (loaded ? doc.get().recordings : []);
  const fileOf = (id: string) => join(options.dir, `${id}.mcap`);
  const find = (id: string): KeptRecording => {
    const found = RECORDING_ID.test(id) ? recordings().find((r) => r.id === id) : undefined;
    if (!found) throw new AppError('NOT_FOUND', `no kept recording ${JSON.stringify(id.slice(0, 80))}`);
    return found;
  };
  const adopt = async (id: string): Promise<void> => {
    try {
      const found = await describeFile(fileOf(id));
      if (!found) return;
      const entry: KeptRecording = {
        id,
        name: `Recovered ${found.startedAt.slice(0, 19).replace('T', ' ')} UTC`,
        reason: 'manual',
        keptAt: found.startedAt,
        ...found,
      };
      await doc.update((cur) => ({ recordings: [...cur.recordings, entry] }));
    } catch (error) {
      options.log.warn('kept recording not listed: unreadable', { id, error: String(error) });
    }
  };
  return {
    async load() {
      await ensureDir(options.dir);
      await doc.load();
      loaded = true;
      const listed = new Set(doc.get().recordings.map((r) => `${r.id}.mcap`));
      for (const name of await readdir(options.dir)) {
        // A copy that never finished is not a recording.
        if (name.endsWith('.mcap.tmp')) await rm(join(options.dir, name), { force: true });
        // A finished file the index does not list (a crash between the two, an index set aside
        // as unreadable) is listed again from its own summary: a kept recording is never lost.
        const id = name.slice(0, -'.mcap'.length);
        if (name.endsWith('.mcap') && !listed.has(name) && RECORDING_ID.test(id)) await adopt(id);
      }
    },
    list: () => [...recordings()].sort((a, b) => b.keptAt.localeCompare(a.keptAt)),
    get: find,
    reserve(now) {
      const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
      const id = `rec-${stamp}-${randomBytes(3).toString('hex')}`;
      return { id, path: fileOf(id) };
    },
    async add(entry) {
      await doc.update((cur) => ({ recordings: [...cur.recordings, entry] }));
      return entry;
    },
    async rename(id, name) {
      find(id);
      const next = await doc
        .update((cur) => ({
          recordings: cur.recordings.map((r) => (r.id === id ? { ...r, name } : r)),
        }))
        .catch((error: unknown) => {
          throw storageFailed(error, 'the new name could not be saved; nothing changed');
        });
      return next.recordings.find((r) => r.id === id) as KeptRecording;
    },
    async remove(id) {
      find(id);
      await doc
        .update((cur) => ({ recordings: cur.recordings.filter((r) => r.id !== id) }))
        .catch((error: unknown) => {
          throw storageFailed(error, 'the recording could not be deleted; nothing changed');
        });
      await rm(fileOf(id), { force: true });
    },
    fileOf: (id) => fileOf(find(id).id),
    async readable(id) {
      const file = fileOf(find(id).id);
      try {
        await stat(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        throw new AppError('NOT_FOUND', `the file of ${id} is no longer on disk; delete the entry`);
      }
      return file;
    },
  };
}

export function defaultName(reason: KeepReason, startMs: number): string {
  const when = new Date(startMs).toISOString().slice(0, 19).replace('T', ' ');
  return reason === 'stop' ? `STOP at ${when} UTC` : `Saved ${when} UTC`;
}
