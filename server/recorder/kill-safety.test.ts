/**
 * A kill -9 while the recorder writes leaves every finished chunk readable: a child process
 * writes a ring file without end, is killed once several chunks are on disk, and the file is
 * then recovered (as the ring does at start) and read with the official indexed reader.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { salvage } from './recover.ts';
import { createRing } from './ring.ts';
import { readBack } from './testing/recorder-rig.ts';

const dir = mkdtempSync(join(tmpdir(), 'recorder-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer until `chunks` chunks are reported on disk, then SIGKILLs it; resolves with the last count. */
function writeThenKill(path: string, chunks: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/recorder/testing/kill-writer.ts', path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    let flushed = 0;
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const match = /^flushed (\d+)$/.exec(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        if (!match) continue;
        flushed = Number(match[1]);
        if (++seen === chunks) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(flushed) : reject(new Error(`writer exited ${signal}`)),
    );
  });
}

it('keeps every chunk that reached the file before the kill, and the file opens indexed after recovery', async () => {
  const path = join(dir, `seg-${String(Date.UTC(2026, 10, 21, 12)).padStart(13, '0')}.mcap`);
  const flushed = await writeThenKill(path, 4);
  expect(flushed).toBeGreaterThan(0);

  // Straight after the kill the file has no summary, but its chunks read with the stream reader.
  const raw = salvage(await readFile(path));
  expect(raw.complete).toBe(false);
  expect(raw.messages.length).toBeGreaterThanOrEqual(flushed);

  // The ring repairs it at start; then the indexed reader sees every flushed message, in order.
  const ring = createRing({ dir, maxMs: 3_600_000, maxBytes: 1 << 30, segmentMs: 10_000, log: silentLog });
  await ring.open();
  expect(ring.segments().map((s) => s.path)).toEqual([path]);
  const back = await readBack(path);
  const seqs = back.messages.map((m) => (m.value as { seq: number }).seq);
  expect(seqs.length).toBeGreaterThanOrEqual(flushed);
  expect(seqs).toEqual(seqs.map((_, i) => i));
  await ring.close();
});
