/**
 * One small JSON document on disk (credentials, sessions, settings...), kept in memory and
 * written atomically with owner-only permissions (ARCHITECTURE.md §5).
 */
import { readFile } from 'node:fs/promises';
import type { Log } from '../log.ts';
import { removeStaleTemps, setAside, writeFileAtomic } from './atomic-write.ts';
import { deepFreeze } from './deep-freeze.ts';

export interface JsonDocumentOptions<T> {
  file: string;
  /** The value used when the file is missing or had to be set aside. */
  defaults: () => T;
  /** Returns the typed document, or undefined when `u` is not a valid one. */
  validate: (u: unknown) => T | undefined;
  log: Log;
  /** Epoch milliseconds, used to name set-aside files; Date.now when omitted. */
  now?: () => number;
}

/**
 * A persisted document. Values are deep-frozen: change it only through save or update, which
 * is what keeps memory and disk in step.
 */
export interface JsonDocument<T> {
  /** Reads the file once; later calls return the value in memory. */
  load(): Promise<T>;
  /** The latest value, including saves that are still being written. */
  get(): T;
  /** Replaces the document; resolves once this value, or a later one, is durable. */
  save(next: T): Promise<void>;
  /**
   * Applies `fn` to the current value synchronously (so concurrent updates never lose each
   * other's changes, and a check inside `fn` is atomic), then saves the result.
   */
  update(fn: (cur: T) => T): Promise<T>;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

interface Batch<T> {
  value: T;
  text: string;
  waiters: Waiter[];
}

/** Creates a document over `file`; call load() before anything else. */
export function createJsonDocument<T>(options: JsonDocumentOptions<T>): JsonDocument<T> {
  const { file, log } = options;
  const now = options.now ?? Date.now;
  let loaded = false;
  let current: T | undefined;
  let durable: T | undefined;
  let pending: Batch<T> | undefined;
  let writing = false;

  function mustGet(): T {
    if (!loaded) throw new Error(`json document ${file}: load() must finish before use`);
    return current as T;
  }

  async function load(): Promise<T> {
    if (loaded) return current as T;
    await removeStaleTemps(file);
    const value = await readValid();
    if (!loaded) {
      current = durable = deepFreeze(value);
      loaded = true;
    }
    return current as T;
  }

  async function readValid(): Promise<T> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return options.defaults();
      throw error;
    }
    const value = parse(text);
    if (value !== undefined) return value;
    const aside = await setAside(file, now());
    log.warn('stored document was corrupt or invalid; set it aside and started from defaults', { file, aside });
    return options.defaults();
  }

  function parse(text: string): T | undefined {
    try {
      return options.validate(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  function save(next: T): Promise<void> {
    let text: string;
    try {
      mustGet();
      text = `${JSON.stringify(next, null, 2)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    current = deepFreeze(next);
    return new Promise<void>((resolve, reject) => {
      // A write already waiting is superseded: only the newest value needs to reach the disk,
      // and everyone waiting is answered by that one write (last wins).
      pending ??= { value: next, text, waiters: [] };
      pending.value = current as T;
      pending.text = text;
      pending.waiters.push({ resolve, reject });
      if (!writing) void drain();
    });
  }

  async function drain(): Promise<void> {
    writing = true;
    while (pending) {
      const batch = pending;
      pending = undefined;
      try {
        await writeFileAtomic(file, batch.text);
        durable = batch.value;
        for (const w of batch.waiters) w.resolve();
      } catch (error) {
        // Memory must not claim what the disk refused, unless a newer save is already queued.
        if (current === batch.value) current = durable;
        for (const w of batch.waiters) w.reject(error);
      }
    }
    writing = false;
  }

  async function update(fn: (cur: T) => T): Promise<T> {
    const next = fn(mustGet());
    await save(next);
    return next;
  }

  return { load, get: mustGet, save, update };
}
