/**
 * An append-only log of JSON rows, one per line, bounded in size (docs/architecture.md, "Configuration and persistence": agent
 * log, events). Appends are cheap (one write + fsync); when the file grows past the bound it is
 * rewritten atomically with only the newest rows.
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Log } from '../log.ts';
import { FILE_MODE, ensureDir, removeStaleTemps, setAside, syncDir, writeFileAtomic } from './atomic-write.ts';
import { deepFreeze } from './deep-freeze.ts';
import { parseLines } from './parse-lines.ts';
import { readStored } from './read-stored.ts';

/**
 * Past what a bounded log reaches: the agent log's 2,500 rows at their 20,000-character cap, each
 * character written as a 6-byte escape, stay under it. A file past it was not written by this
 * log, and is set aside unread.
 */
export const LINES_MAX_BYTES = 384 * 1024 * 1024;

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
  if (!Number.isInteger(options.maxRows) || options.maxRows < 1)
    throw new RangeError('maxRows must be a positive integer');
  return new FileLines(options);
}

class FileLines<T> implements JsonLines<T> {
  readonly #options: JsonLinesOptions<T>;
  /**
   * Rewriting on every append once full would cost a whole-file write per row; letting the file
   * run a quarter over the bound amortises compaction while keeping it bounded.
   */
  readonly #fileBound: number;
  #loaded = false;
  #kept: readonly T[] = [];
  #fileRows = 0;
  #queue: Pending<T>[] = [];
  #writing = false;
  /**
   * An append failed part-way (a full disk) and may have left part of a line at the end: the
   * next row must not be glued onto it, so the next write rewrites the file instead.
   */
  #tornTail = false;

  constructor(options: JsonLinesOptions<T>) {
    this.#options = options;
    this.#fileBound = options.maxRows + Math.max(1, Math.ceil(options.maxRows / 4));
  }

  rows(): readonly T[] {
    return this.#kept;
  }

  async load(): Promise<readonly T[]> {
    if (this.#loaded) return this.#kept;
    const { file, log, maxRows } = this.#options;
    await removeStaleTemps(file);
    const stored = await readStored(file, LINES_MAX_BYTES);
    if ('unusable' in stored) {
      // Not a log it can read (a folder, a file of gigabytes): set aside, so start goes on and
      // says where it went.
      const aside = await setAside(file, (this.#options.now ?? Date.now)());
      log.warn('log file could not be read; set it aside and started empty', {
        file,
        aside,
        problem: stored.unusable,
      });
    }
    const parsed = parseLines('text' in stored ? stored.text : '', this.#options.validate);
    if (parsed.badLines > 0) {
      const aside = await setAside(file, (this.#options.now ?? Date.now)());
      log.warn('log file had unreadable rows; set it aside and kept the readable ones', {
        file,
        aside,
        badLines: parsed.badLines,
      });
    } else if (parsed.torn) {
      log.info('dropped a torn last line (the process stopped mid-write)', { file });
    }
    this.#kept = parsed.rows.slice(-maxRows).map(deepFreeze);
    this.#fileRows = parsed.rows.length;
    // A torn tail would glue onto the next append; bad rows were set aside: rewrite clean.
    if (parsed.torn || parsed.badLines > 0 || this.#fileRows > this.#fileBound) {
      try {
        await this.#rewrite(this.#kept);
      } catch (error) {
        // A full disk (what tears a line in the first place) must not keep the log, and the
        // cockpit with it, from starting: the rows are in memory, and the next write rewrites.
        this.#tornTail = true;
        log.warn('log file not rewritten at start; the next row rewrites it', { file, error: String(error) });
      }
    }
    this.#loaded = true;
    return this.#kept;
  }

  append(row: T): Promise<void> {
    if (!this.#loaded) {
      return Promise.reject(new Error(`json lines ${this.#options.file}: load() must finish before append()`));
    }
    let line: string;
    try {
      line = `${JSON.stringify(row)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ row, line, resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#writeBatch(batch);
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    this.#writing = false;
  }

  /** Appends the batch, or compacts when it would push the file past its bound. */
  async #writeBatch(batch: Pending<T>[]): Promise<void> {
    const next = [...this.#kept, ...batch.map((p) => deepFreeze(p.row))].slice(-this.#options.maxRows);
    if (this.#tornTail || this.#fileRows + batch.length > this.#fileBound) {
      await this.#rewrite(next);
    } else {
      await this.#appendDurably(batch.map((p) => p.line).join(''));
      this.#fileRows += batch.length;
    }
    this.#kept = next;
  }

  async #rewrite(rows: readonly T[]): Promise<void> {
    await writeFileAtomic(this.#options.file, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    this.#fileRows = rows.length;
    this.#tornTail = false;
  }

  async #appendDurably(text: string): Promise<void> {
    const dir = dirname(this.#options.file);
    const created = this.#fileRows === 0;
    if (created) await ensureDir(dir);
    const handle = await open(this.#options.file, 'a', FILE_MODE);
    try {
      // writeFile goes on after a short write (a nearly full disk writes what fits and says so),
      // where one write() call would take part of the text for all of it.
      await handle.writeFile(text);
      await handle.sync();
    } catch (error) {
      this.#tornTail = true;
      throw error;
    } finally {
      await handle.close();
    }
    // A newly created file's directory entry must be durable too.
    if (created) await syncDir(dir);
  }
}
