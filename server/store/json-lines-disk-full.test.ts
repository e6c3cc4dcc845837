/**
 * A log row appended while the disk fills: a write that falls short is not taken for a durable
 * row, and the torn line it left never glues onto the next row, so every row acknowledged as
 * durable reads back after a restart, even one while the disk is still full. The disk is
 * `node:fs/promises` that runs out of room (server/testing/full-disk.ts).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { disk } from '../testing/full-disk.ts';
import { createJsonLines, type JsonLines } from './json-lines.ts';
import { makeTempDir, recordingLog } from './testing/temp-dir.ts';

vi.mock('node:fs/promises', async (importOriginal) => {
  const { withFullDisk } = await import('../testing/full-disk.ts');
  return withFullDisk(await importOriginal());
});

interface Row {
  n: number;
  text: string;
}

const validate = (u: unknown): Row | undefined =>
  typeof u === 'object' && u !== null && typeof (u as Row).n === 'number' ? (u as Row) : undefined;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
afterEach(async () => {
  disk.full = false;
  disk.room = Infinity;
  await cleanup();
});

function open(): JsonLines<Row> {
  return createJsonLines({ file: join(dir, 'rows.jsonl'), maxRows: 100, validate, log: recordingLog().log });
}

it('a row the disk had no room for is refused, and the rows acknowledged around it read back', async () => {
  const rows = open();
  await rows.load();
  await rows.append({ n: 1, text: 'before' });
  // Room for half of the next row: the write falls short, as on a nearly full partition.
  disk.room = 20;
  const torn = await rows.append({ n: 2, text: 'x'.repeat(40) }).then(
    () => 'acknowledged',
    () => 'refused',
  );
  disk.room = Infinity;
  await rows.append({ n: 3, text: 'after' });
  const acknowledged = [1, ...(torn === 'acknowledged' ? [2] : []), 3];
  const again = open();
  expect((await again.load()).map((r) => r.n)).toEqual(acknowledged);
  expect(torn).toBe('refused');
});

it('a torn last line found while the disk is full still loads, and the next row rewrites the file clean', async () => {
  const rows = open();
  await rows.load();
  await rows.append({ n: 1, text: 'before' });
  disk.room = 20;
  await rows.append({ n: 2, text: 'x'.repeat(40) }).catch(() => undefined);
  // A restart while the disk is still full: the torn line cannot be rewritten away yet.
  disk.full = true;
  const again = open();
  expect((await again.load()).map((r) => r.n)).toEqual([1]);
  disk.full = false;
  disk.room = Infinity;
  await again.append({ n: 3, text: 'after' });
  expect((await open().load()).map((r) => r.n)).toEqual([1, 3]);
});
