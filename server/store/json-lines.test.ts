import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonLines, LINES_MAX_BYTES } from './json-lines.ts';
import type { JsonLines } from './json-lines.ts';
import { makeTempDir, recordingLog } from './testing/temp-dir.ts';

interface Row {
  n: number;
}

const validate = (u: unknown): Row | undefined =>
  typeof u === 'object' && u !== null && typeof (u as Row).n === 'number' ? { n: (u as Row).n } : undefined;

let dir: string;
let cleanup: () => Promise<void>;
let file: string;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  file = join(dir, 'logs', 'events.jsonl');
});
afterEach(() => cleanup());

function open(maxRows = 100, log = recordingLog().log): JsonLines<Row> {
  return createJsonLines({ file, maxRows, validate, log, now: () => Date.UTC(2026, 0, 1) });
}

const fileLines = async (): Promise<string[]> => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

describe('createJsonLines', () => {
  it('appends durable owner-only rows that a new instance reads back in order', async () => {
    const log = open();
    await log.load();
    await Promise.all(Array.from({ length: 10 }, (_, i) => log.append({ n: i })));
    expect(log.rows().map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = open();
    expect((await again.load()).map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('drops only a torn last line and appends cleanly after it', async () => {
    await mkdir(join(dir, 'logs'));
    await writeFile(file, '{"n":1}\n{"n":2}\n{"n":3');
    const { log: logger, records } = recordingLog();
    const log = open(100, logger);
    expect((await log.load()).map((r) => r.n)).toEqual([1, 2]);
    expect(records.some((r) => r.level === 'warn')).toBe(false);
    expect(records.some((r) => /torn/.test(r.msg))).toBe(true);
    await log.append({ n: 4 });
    expect(await fileLines()).toEqual(['{"n":1}', '{"n":2}', '{"n":4}']);
    expect((await open().load()).map((r) => r.n)).toEqual([1, 2, 4]);
  });

  it('reports unreadable rows, sets the file aside and keeps the readable rows', async () => {
    await mkdir(join(dir, 'logs'));
    await writeFile(file, '{"n":1}\nnot json\n{"x":2}\n{"n":3}\n');
    const { log: logger, records } = recordingLog();
    expect((await open(100, logger).load()).map((r) => r.n)).toEqual([1, 3]);
    expect(records.filter((r) => r.level === 'warn')).toHaveLength(1);
    const names = await readdir(join(dir, 'logs'));
    expect(names.sort()).toEqual(['events.jsonl', 'events.jsonl.corrupt-2026-01-01T00-00-00-000Z']);
    expect(await fileLines()).toEqual(['{"n":1}', '{"n":3}']);
  });

  it('sets aside a folder found where the file should be, starts empty and appends', async () => {
    await mkdir(join(file, 'inside'), { recursive: true });
    const { log: logger, records } = recordingLog();
    const log = open(100, logger);
    expect(await log.load()).toEqual([]);
    const aside = `${file}.corrupt-2026-01-01T00-00-00-000Z`;
    expect((await stat(join(aside, 'inside'))).isDirectory()).toBe(true);
    expect(records.filter((r) => r.level === 'warn')).toEqual([expect.objectContaining({ file, aside })]);
    await log.append({ n: 1 });
    expect(await fileLines()).toEqual(['{"n":1}']);
  });

  it('sets aside unread a file of gigabytes, and a pipe, and starts empty', async () => {
    await mkdir(join(dir, 'logs'));
    // Sparse: 3 GiB long, nothing on disk. Reading it whole failed the start (past 2 GiB).
    await writeFile(file, '');
    await truncate(file, 3 * 1024 ** 3);
    const { log: logger, records } = recordingLog();
    expect(await open(100, logger).load()).toEqual([]);
    expect(records.filter((r) => r.level === 'warn')).toEqual([
      expect.objectContaining({ file, problem: `${3 * 1024 ** 3} bytes, over the ${LINES_MAX_BYTES} it may hold` }),
    ]);
    // A pipe with no writer: reading it waited for ever.
    execFileSync('mkfifo', [file]);
    const log = open();
    expect(await log.load()).toEqual([]);
    await log.append({ n: 1 });
    expect(await fileLines()).toEqual(['{"n":1}']);
  });

  it('keeps the row count bounded by compacting atomically', async () => {
    const log = open(4);
    await log.load();
    for (let i = 0; i < 23; i += 1) {
      await log.append({ n: i });
      expect((await fileLines()).length).toBeLessThanOrEqual(5);
    }
    expect(log.rows().map((r) => r.n)).toEqual([19, 20, 21, 22]);
    expect((await open(4).load()).map((r) => r.n)).toEqual([19, 20, 21, 22]);
  });

  it('keeps only the newest rows of an oversized file at load', async () => {
    await mkdir(join(dir, 'logs'));
    await writeFile(file, Array.from({ length: 30 }, (_, i) => `{"n":${i}}\n`).join(''));
    expect((await open(3).load()).map((r) => r.n)).toEqual([27, 28, 29]);
    expect(await fileLines()).toEqual(['{"n":27}', '{"n":28}', '{"n":29}']);
  });

  it('refuses append before load and a bad bound', async () => {
    await expect(open().append({ n: 1 })).rejects.toThrow(/load/);
    expect(() => open(0)).toThrow(RangeError);
  });
});
