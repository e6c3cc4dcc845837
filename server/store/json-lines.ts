/**
 * An append-only log of JSON rows, one per line, bounded in size (ARCHITECTURE.md §5: agent
 * log, events). Appends are cheap (one write + fsync); when the file grows past the bound it is
 * rewritten atomically with only the newest rows.
 */
import { open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Log } from '../log.ts';
import { FILE_MODE, ensureDir, removeStaleTemps, setAside, syncDir, writeFileAtomic } from './atomic-write.ts';
import { deepFreeze } from './deep-freeze.ts';
import { parseLines } from './parse-lines.ts';

export interface JsonLinesOptions<T> {
  file: string;
  /** How many of the newest rows are kept in memory and survive a compaction. */
  maxRows: number;
  /** Returns the typed row, or undefined when `u` is not a valid one. */
  validate: (u: unknown) => T | undefined;
  log: Log;
  /** Epoch milliseconds, used to name set-aside files; Date.now when omitted. */
  now?: () => number;
}

/** A bounded append-only log. Rows are deep-frozen. */
export interface JsonLines<T> {
  /** Reads the file once (dropping a torn last line); later calls return the rows in memory. */
  load(): Promise<readonly T[]>;
  /** The newest rows (at most maxRows), oldest first; only rows already durable. */
  rows(): readonly T[];
  /** Appends one row; resolves once it is durable on disk. */
  append(row: T): Promise<void>;
}

interface Pending<T> {
  row: T;
  line: string;
  resolve(): void;
  reject(error: unknown): void;
}

/** Creates a log over `file`; call load() before append(). */
export function createJsonLines<T>(options: JsonLinesOptions<T>): JsonLines<T> {
  const { file, maxRows, log } = options;
  if (!Number.isInteger(maxRows) || maxRows < 1) throw new RangeError('maxRows must be a positive integer');
  const now = options.now ?? Date.now;
  // Rewriting on every append once full would cost a whole-file write per row; letting the
  // file run a quarter over the bound amortises compaction while keeping it bounded.
  const fileBound = maxRows + Math.max(1, Math.ceil(maxRows / 4));
  let loaded = false;
  let kept: T[] = [];
  let fileRows = 0;
  let queue: Pending<T>[] = [];
  let writing = false;

  async function load(): Promise<readonly T[]> {
    if (loaded) return kept;
    await removeStaleTemps(file);
    const text = await readText();
    const parsed = parseLines(text, options.validate);
    if (parsed.badLines > 0) {
      const aside = await setAside(file, now());
      log.warn('log file had unreadable rows; set it aside and kept the readable ones', {
        file,
        aside,
        badLines: parsed.badLines,
      });
    } else if (parsed.torn) {
      log.info('dropped a torn last line (the process stopped mid-write)', { file });
    }
    kept = parsed.rows.slice(-maxRows).map(deepFreeze);
    fileRows = parsed.rows.length;
    // A torn tail would glue onto the next append; bad rows were set aside: rewrite clean.
    if (parsed.torn || parsed.badLines > 0 || fileRows > fileBound) await rewrite();
    loaded = true;
    return kept;
  }

  async function readText(): Promise<string> {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw error;
    }
  }

  async function rewrite(): Promise<void> {
    await writeFileAtomic(file, kept.map((r) => `${JSON.stringify(r)}\n`).join(''));
    fileRows = kept.length;
  }

  function append(row: T): Promise<void> {
    if (!loaded) return Promise.reject(new Error(`json lines ${file}: load() must finish before append()`));
    let line: string;
    try {
      line = `${JSON.stringify(row)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      queue.push({ row, line, resolve, reject });
      if (!writing) void drain();
    });
  }

  async function drain(): Promise<void> {
    writing = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await writeBatch(batch);
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    writing = false;
  }

  async function writeBatch(batch: Pending<T>[]): Promise<void> {
    const rows = batch.map((p) => deepFreeze(p.row));
    if (fileRows + rows.length > fileBound) {
      const before = kept;
      kept = [...kept, ...rows].slice(-maxRows);
      try {
        await rewrite();
      } catch (error) {
        kept = before;
        throw error;
      }
      return;
    }
    await appendDurably(batch.map((p) => p.line).join(''));
    fileRows += rows.length;
    kept = [...kept, ...rows].slice(-maxRows);
  }

  async function appendDurably(text: string): Promise<void> {
    const created = fileRows === 0;
    if (created) await ensureDir(dirname(file));
    const handle = await open(file, 'a', FILE_MODE);
    try {
      await handle.write(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (created) await syncDir(dirname(file));
  }

  return { load, rows: () => kept, append };
}
