import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonDocument, DOCUMENT_MAX_BYTES } from './json-document.ts';
import type { JsonDocument } from './json-document.ts';
import { makeTempDir, recordingLog } from './testing/temp-dir.ts';

interface Counter {
  n: number;
}

const validate = (u: unknown): Counter | undefined =>
  typeof u === 'object' && u !== null && typeof (u as Counter).n === 'number' ? { n: (u as Counter).n } : undefined;

let dir: string;
let cleanup: () => Promise<void>;
let file: string;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  file = join(dir, 'nested', 'doc.json');
});
afterEach(() => cleanup());

function open(log = recordingLog().log, now = () => Date.UTC(2026, 0, 2, 3, 4, 5, 6)): JsonDocument<Counter> {
  return createJsonDocument({ file, defaults: () => ({ n: 0 }), validate, log, now });
}

const readJson = async (): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'));

describe('createJsonDocument', () => {
  it('starts from defaults, writes owner-only files in an owner-only folder, and a new instance reads them', async () => {
    const doc = open();
    expect(await doc.load()).toEqual({ n: 0 });
    await doc.save({ n: 7 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested'))).mode & 0o777).toBe(0o700);
    const again = open();
    expect(await again.load()).toEqual({ n: 7 });
  });

  it('sets a file that is not JSON aside, reports it, and uses defaults without overwriting it', async () => {
    await mkdir(join(dir, 'nested'));
    await writeFile(file, '{"n": 3,,,');
    const { log, records } = recordingLog();
    const doc = open(log);
    expect(await doc.load()).toEqual({ n: 0 });
    const aside = `${file}.corrupt-2026-01-02T03-04-05-006Z`;
    expect(await readFile(aside, 'utf8')).toBe('{"n": 3,,,');
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(records.filter((r) => r.level === 'warn')).toHaveLength(1);
    expect(records[0]).toMatchObject({ aside });
  });

  it('sets aside a file that is JSON but fails validation, and keeps an earlier set-aside copy', async () => {
    await mkdir(join(dir, 'nested'));
    await writeFile(`${file}.corrupt-2026-01-02T03-04-05-006Z`, 'older');
    await writeFile(file, '{"n": "three"}');
    const { log, records } = recordingLog();
    expect(await open(log).load()).toEqual({ n: 0 });
    expect(await readFile(`${file}.corrupt-2026-01-02T03-04-05-006Z`, 'utf8')).toBe('older');
    expect(await readFile(`${file}.corrupt-2026-01-02T03-04-05-006Z-1`, 'utf8')).toBe('{"n": "three"}');
    expect(records.some((r) => r.level === 'warn')).toBe(true);
  });

  it('sets aside a folder found where the file should be, and starts from defaults', async () => {
    await mkdir(join(file, 'inside'), { recursive: true });
    await writeFile(join(file, 'inside', 'note'), 'kept');
    const { log, records } = recordingLog();
    const doc = open(log);
    expect(await doc.load()).toEqual({ n: 0 });
    const aside = `${file}.corrupt-2026-01-02T03-04-05-006Z`;
    expect(await readFile(join(aside, 'inside', 'note'), 'utf8')).toBe('kept');
    expect(records.filter((r) => r.level === 'warn')).toEqual([
      expect.objectContaining({ file, aside, problem: 'a folder, not a file' }),
    ]);
    await doc.save({ n: 2 });
    expect(await readJson()).toEqual({ n: 2 });
  });

  it('sets aside unread a file of gigabytes, and a pipe, and starts from defaults', async () => {
    await mkdir(join(dir, 'nested'));
    // Sparse: 3 GiB long, nothing on disk. Reading it whole failed the start (past 2 GiB).
    await writeFile(file, '');
    await truncate(file, 3 * 1024 ** 3);
    const { log, records } = recordingLog();
    expect(await open(log).load()).toEqual({ n: 0 });
    expect(records.filter((r) => r.level === 'warn')).toEqual([
      expect.objectContaining({ file, problem: `${3 * 1024 ** 3} bytes, over the ${DOCUMENT_MAX_BYTES} it may hold` }),
    ]);
    // A pipe with no writer: reading it waited for ever.
    execFileSync('mkfifo', [file]);
    expect(await open().load()).toEqual({ n: 0 });
    expect((await readdir(join(dir, 'nested'))).filter((n) => n.startsWith('doc.json.corrupt-'))).toHaveLength(2);
  });

  it('serialises concurrent saves: the last wins and each resolves only once its value or a later one is durable', async () => {
    const doc = open();
    await doc.load();
    const seen: number[] = [];
    const saves = Array.from({ length: 20 }, (_, i) =>
      doc.save({ n: i + 1 }).then(async () => {
        const onDisk = (await readJson()) as Counter;
        seen.push(onDisk.n - (i + 1));
      }),
    );
    expect(doc.get()).toEqual({ n: 20 });
    await Promise.all(saves);
    expect(await readJson()).toEqual({ n: 20 });
    expect(seen.every((d) => d >= 0)).toBe(true);
  });

  it('applies concurrent updates in order without losing any', async () => {
    const doc = open();
    await doc.load();
    await Promise.all(Array.from({ length: 15 }, () => doc.update((c) => ({ n: c.n + 1 }))));
    expect(await readJson()).toEqual({ n: 15 });
  });

  it('refuses use before load and changes to the frozen value', async () => {
    const doc = open();
    expect(() => doc.get()).toThrow(/load/);
    await expect(doc.save({ n: 1 })).rejects.toThrow(/load/);
    await doc.load();
    expect(() => {
      (doc.get() as { n: number }).n = 5;
    }).toThrow(TypeError);
  });

  it('rejects a failed write and keeps memory equal to the last durable value', async () => {
    const doc = open();
    await doc.load();
    await doc.save({ n: 1 });
    await import('node:fs/promises').then((fs) => fs.rm(file));
    await mkdir(file); // renaming a file over a folder fails
    await expect(doc.save({ n: 2 })).rejects.toThrow();
    expect(doc.get()).toEqual({ n: 1 });
    expect((await readdir(join(dir, 'nested'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('removes temp files a killed writer left and keeps the previous content', async () => {
    await mkdir(join(dir, 'nested'));
    await writeFile(file, '{"n": 4}\n');
    await writeFile(join(dir, 'nested', '.doc.json.abc123.tmp'), '{"n": 5');
    expect(await open().load()).toEqual({ n: 4 });
    expect(await readdir(join(dir, 'nested'))).toEqual(['doc.json']);
  });
});
