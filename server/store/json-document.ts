/**
 * One small JSON document on disk (credentials, sessions, settings...), kept in memory and
 * written atomically with owner-only permissions (docs/architecture.md, "Configuration and persistence").
 */
import type { Log } from '../log.ts';
import { removeStaleTemps, setAside, writeFileAtomic } from './atomic-write.ts';
import { deepFreeze } from './deep-freeze.ts';
import { readStored } from './read-stored.ts';

/**
 * Far more than any of these documents holds (a session or a passkey is a few hundred bytes); a
 * file past it is not one of them, and is set aside unread.
 */
export const DOCUMENT_MAX_BYTES = 64 * 1024 * 1024;

export interface JsonDocumentOptions<T> {
  file: string;
  /** The value used when the file is missing or had to be set aside. */
  defaults: () => T;
  /** Returns the typed document, or undefined when `u` is not a valid one. */
  validate: (u: unknown) => T | undefined;
  log: Log;
  /** Epoch milliseconds, used to name set-aside files; Date.now when omitted. */
  now?: () => number;
  /**
   * Told when load() found the file unreadable and set it aside: for a document whose empty
   * defaults would grant something (no passkey yet means trust on first use), that is not a
   * first run.
   */
  onSetAside?: (aside: string) => void;
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
  return new FileDocument(options);
}

class FileDocument<T> implements JsonDocument<T> {
  readonly #options: JsonDocumentOptions<T>;
  #loaded = false;
  #current: T | undefined;
  /** The value last confirmed on disk, restored if a later write fails. */
  #durable: T | undefined;
  #pending: Batch<T> | undefined;
  #writing = false;

  constructor(options: JsonDocumentOptions<T>) {
    this.#options = options;
  }

  get(): T {
    if (!this.#loaded) throw new Error(`json document ${this.#options.file}: load() must finish before use`);
    return this.#current as T;
  }

  async load(): Promise<T> {
    if (this.#loaded) return this.#current as T;
    await removeStaleTemps(this.#options.file);
    const value = await this.#readValid();
    if (!this.#loaded) {
      this.#current = this.#durable = deepFreeze(value);
      this.#loaded = true;
    }
    return this.#current as T;
  }

  save(next: T): Promise<void> {
    let text: string;
    try {
      this.get();
      text = `${JSON.stringify(next, null, 2)}\n`;
    } catch (error) {
      return Promise.reject(error);
    }
    this.#current = deepFreeze(next);
    return new Promise<void>((resolve, reject) => {
      // A write already waiting is superseded: only the newest value needs to reach the disk,
      // and everyone waiting is answered by that one write (last wins).
      this.#pending ??= { value: next, text, waiters: [] };
      this.#pending.value = next;
      this.#pending.text = text;
      this.#pending.waiters.push({ resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async update(fn: (cur: T) => T): Promise<T> {
    const next = fn(this.get());
    await this.save(next);
    return next;
  }

  async #readValid(): Promise<T> {
    const { file, log, defaults } = this.#options;
    const stored = await readStored(file, DOCUMENT_MAX_BYTES);
    if ('missing' in stored) return defaults();
    const value = 'text' in stored ? this.#parse(stored.text) : undefined;
    if (value !== undefined) return value;
    const aside = await setAside(file, (this.#options.now ?? Date.now)());
    log.warn('stored document was corrupt or invalid; set it aside and started from defaults', {
      file,
      aside,
      ...('unusable' in stored ? { problem: stored.unusable } : {}),
    });
    this.#options.onSetAside?.(aside);
    return defaults();
  }

  #parse(text: string): T | undefined {
    try {
      return this.#options.validate(JSON.parse(text));
    } catch {
      return undefined;
    }
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#pending) {
      const batch = this.#pending;
      this.#pending = undefined;
      try {
        await writeFileAtomic(this.#options.file, batch.text);
        this.#durable = batch.value;
        for (const w of batch.waiters) w.resolve();
      } catch (error) {
        // Memory must not claim what the disk refused, unless a newer save is already queued.
        if (this.#current === batch.value) this.#current = this.#durable;
        for (const w of batch.waiters) w.reject(error);
      }
    }
    this.#writing = false;
  }
}
