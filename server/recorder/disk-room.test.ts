/**
 * The ring keeps a tenth of its disk (at most 1 GiB) free for the rest of the robot (disk-room.ts):
 * with less free, it deletes its oldest segments first, and when none is left to delete it waits,
 * dropping and counting, and says why; once the disk has room it records again. The room is the
 * test's, so the bound is met without filling a disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { diskRoomOf, freeFloor, type DiskRoom } from './disk-room.ts';
import { createRing, type Ring } from './ring.ts';

const MB = 1024 ** 2;
const TOTAL = 100 * MB;
let dir = '';
let ring: Ring | undefined;
afterEach(async () => {
  await ring?.close();
  ring = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Three 10-second segments of about 200 KB each, finished. */
async function threeSegments(r: Ring): Promise<void> {
  const record = new Uint8Array(20 * 1024).fill(7);
  for (let s = 0; s < 3; s += 1) for (let i = 0; i < 10; i += 1) r.write('state', s * 10_000 + i * 900, record);
  await r.rotate();
}

it('deletes the oldest segments while the disk is under its floor, then waits for room and records again', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ring-room-'));
  let room: DiskRoom = { free: 50 * MB, total: TOTAL };
  ring = createRing({
    dir,
    maxMs: 3_600_000,
    maxBytes: 1 << 30,
    segmentMs: 10_000,
    log: silentLog,
    diskRoom: async () => room,
  });
  await ring.open();
  await threeSegments(ring);
  expect(ring.segments()).toHaveLength(3);
  const [oldest, middle, newest] = ring.segments().map((s) => ({ ...s }));
  // Short of the floor by a little more than one segment: the two oldest go, the newest stays.
  room = { free: freeFloor(TOTAL) - (oldest?.bytes ?? 0) - 1, total: TOTAL };
  await ring.prune();
  expect(ring.segments().map((s) => s.path)).toEqual([newest?.path]);
  expect(middle?.bytes).toBeGreaterThan(0);
  expect(ring.stats().problem).toBeNull();
  // Short by more than the whole ring: all of it goes, and new records wait.
  room = { free: MB, total: TOTAL };
  await ring.prune();
  expect(ring.segments()).toEqual([]);
  ring.write('state', 40_000, new Uint8Array(100));
  await ring.rotate();
  expect(ring.stats().dropped).toBe(1);
  expect(ring.stats().problem).toMatch(/^the disk has 1\.0 MiB free, under the 10\.0 MiB the recorder leaves/);
  room = { free: 50 * MB, total: TOTAL };
  await ring.prune();
  ring.write('state', 41_000, new Uint8Array(100));
  await ring.rotate();
  expect(ring.stats().problem).toBeNull();
  expect(ring.segments()).toHaveLength(1);
  expect(ring.stats().dropped).toBe(1);
});

it('keeps a tenth of the disk, at most 1 GiB, and reads the room of a real folder', async () => {
  expect(freeFloor(100 * MB)).toBe(10 * MB);
  expect(freeFloor(64 * 1024 * MB)).toBe(1024 * MB);
  dir = mkdtempSync(join(tmpdir(), 'ring-room-'));
  const room = await diskRoomOf(dir);
  expect(room?.total).toBeGreaterThan(0);
  expect(room?.free).toBeLessThanOrEqual(room?.total ?? 0);
  expect(await diskRoomOf(join(dir, 'missing'))).toBeUndefined();
});
