/**
 * A full disk while the black box records: the recorder says so, drops and counts what it cannot
 * write instead of retrying every record, holds no growing buffer and leaks no file handles, and
 * once the disk has room it records again and keeps what reached the disk before it filled.
 * The disk is `node:fs/promises` with writes that fail with ENOSPC on request (server/testing/full-disk.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { salvage } from './recover.ts';
import { disk } from '../testing/full-disk.ts';
import { fakeState, readBack, startRecorderRig, type RecorderRig } from './testing/recorder-rig.ts';

vi.mock('node:fs/promises', async (importOriginal) => {
  const { withFullDisk } = await import('../testing/full-disk.ts');
  return withFullDisk(await importOriginal());
});

let rig: RecorderRig | undefined;
afterEach(async () => {
  disk.full = false;
  disk.room = Infinity;
  await rig?.close();
  rig = undefined;
});

/** A camera record of about 30 KB, JSON as the recorder writes frames. */
const frame = new TextEncoder().encode(JSON.stringify({ format: 'jpeg', data: 'A'.repeat(30_000) }));

/** One second of fake time: five frames and a state, then the tick. */
async function second(r: RecorderRig): Promise<void> {
  for (let f = 0; f < 5; f += 1) r.recorder.recordBytes('camera', frame);
  r.recorder.record('state', fakeState(1));
  r.clock.advance(1000);
  await r.recorder.tick();
  await r.recorder.idle();
}

it('a full disk stops the recording cleanly, and it resumes with nothing that reached the disk lost', async () => {
  rig = await startRecorderRig({ segmentMs: 10_000 });
  const r = rig;
  const started = r.clock.now();
  for (let s = 0; s < 5; s += 1) await second(r);
  const handles = disk.openHandles();
  // The states in whole chunks on disk now; the chunk being filled is in memory only.
  const onDisk = r
    .ringFiles()
    .flatMap((n) => salvage(readFileSync(join(r.dir, 'ring', n))).messages.filter((m) => m.kind === 'state'));
  expect(onDisk.length).toBeGreaterThan(0);

  disk.full = true;
  const asked = disk.bytesAsked();
  for (let s = 0; s < 30; s += 1) await second(r);
  // 30 s handed in about 4.6 MB; a writer that retried its unwritten chunk with every record
  // asked the disk for hundreds of megabytes, all held in memory.
  expect(disk.bytesAsked() - asked).toBeLessThan(30 * 5 * frame.length);
  // No handle per attempt: at most the one the open file had.
  expect(disk.openHandles()).toBeLessThanOrEqual(handles);
  expect(r.recorder.status()).toMatchObject({ recording: true, problem: expect.stringContaining('ENOSPC') });
  expect(r.recorder.status().dropped).toBeGreaterThan(0);

  disk.full = false;
  for (let s = 0; s < 30; s += 1) await second(r);
  expect(r.recorder.status().problem).toBeNull();
  // Only ring files, each indexed: no empty file per failed attempt.
  await r.recorder.stop();
  const ring = join(r.dir, 'ring');
  const names = readdirSync(ring);
  expect(names.every((n) => /^seg-\d{13}\.mcap$/.test(n))).toBe(true);
  expect(names.length).toBeLessThanOrEqual(8);
  const states: number[] = [];
  for (const name of names) {
    const back = await readBack(join(ring, name));
    for (const m of back.messages) if (m.topic === '/robot/state') states.push(m.ms - started);
  }
  // What had reached the disk before it filled is there (the file it was writing, indexed again
  // once there was room), and the thirty seconds after it had room again.
  expect(states.filter((ms) => ms < 5000)).toHaveLength(onDisk.length);
  expect(states.filter((ms) => ms >= 35_000)).toHaveLength(30);
});

it('saving, renaming, deleting and the camera switch on a full disk answer STORAGE_FAILED, and nothing changes', async () => {
  rig = await startRecorderRig({ segmentMs: 10_000 });
  const r = rig;
  for (let s = 0; s < 20; s += 1) await second(r);
  const saved = await r.recorder.keepLast(1, 'before');
  disk.full = true;
  const refusal = { code: 'STORAGE_FAILED', status: 503, message: expect.stringContaining('ENOSPC') };
  await expect(r.recorder.keepLast(1)).rejects.toMatchObject(refusal);
  await expect(r.recorder.kept.rename(saved.id, 'after')).rejects.toMatchObject(refusal);
  await expect(r.recorder.kept.remove(saved.id)).rejects.toMatchObject(refusal);
  await expect(r.recorder.setCamera(false)).rejects.toMatchObject(refusal);
  disk.full = false;
  expect(r.recorder.kept.list()).toEqual([saved]);
  expect(r.recorder.cameraOn()).toBe(true);
  await second(r);
  await expect(r.recorder.keepLast(1)).resolves.toMatchObject({ reason: 'manual' });
});
