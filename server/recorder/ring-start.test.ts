/**
 * What the ring finds at start: a file a kill left without its index, while the disk is full;
 * a directory where a segment would be; a finished file whose footer points at nothing. None of
 * them may cost the recording what reached the disk, nor keep the recorder from starting.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { createFakeClock } from '../auth/testing/fake-clock.ts';
import { silentLog } from '../log.ts';
import { createMcapFile } from './mcap-file.ts';
import { createRecorder, type Recorder } from './recorder.ts';
import { disk } from '../testing/full-disk.ts';
import { fakeState, readBack } from './testing/recorder-rig.ts';

vi.mock('node:fs/promises', async (importOriginal) => {
  const { withFullDisk } = await import('../testing/full-disk.ts');
  return withFullDisk(await importOriginal());
});

const clock = createFakeClock();
let dir = '';
let recorder: Recorder | undefined;
afterEach(async () => {
  disk.full = false;
  disk.room = Infinity;
  await recorder?.stop();
  recorder = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function ringDir(): string {
  dir = mkdtempSync(join(tmpdir(), 'ring-start-'));
  const ring = join(dir, 'recordings', 'ring');
  mkdirSync(ring, { recursive: true });
  return ring;
}

/** A segment of `count` states a second apart, ending a minute before now; closed or killed. */
async function segment(ring: string, count: number, how: 'closed' | 'killed'): Promise<string> {
  const start = clock.now() - 60_000 - count * 1000;
  const path = join(ring, `seg-${start}.mcap`);
  const file = await createMcapFile(path);
  const pad = 'x'.repeat(2000);
  for (let i = 0; i < count; i += 1)
    await file.add('state', start + i * 1000, new TextEncoder().encode(JSON.stringify({ i, pad })));
  if (how === 'closed') await file.close();
  else await file.abandon();
  return path;
}

async function start(): Promise<Recorder> {
  recorder = createRecorder({
    dir: join(dir, 'recordings'),
    maxMinutes: 10,
    maxBytes: 1 << 30,
    cameraFps: 5,
    clock,
    log: silentLog,
    tickMs: null,
  });
  await recorder.start();
  return recorder;
}

/** Seconds of state recorded from now on, ticking each second. */
async function record(r: Recorder, seconds: number): Promise<void> {
  for (let s = 0; s < seconds; s += 1) {
    r.record('state', fakeState(s));
    clock.advance(1000);
    await r.tick();
  }
  await r.idle();
}

it('a killed segment found while the disk is full stays, and is kept once the disk has room', async () => {
  const ring = ringDir();
  // 400 states of 2 KB: three whole chunks reached the file before the kill.
  const path = await segment(ring, 400, 'killed');
  const size = statSync(path).size;
  // Room for the copy's header, not for its first chunk.
  disk.room = 100_000;
  const handles = disk.openHandles();
  const r = await start();
  // The file is whole, the copy and its handle are gone.
  expect(readdirSync(ring)).toEqual([path.slice(ring.length + 1)]);
  expect(statSync(path).size).toBe(size);
  expect(disk.openHandles()).toBe(handles);
  disk.room = Infinity;
  await record(r, 5);
  const kept = await r.keepLast(10);
  const states = (await readBack(r.kept.fileOf(kept.id))).messages.filter((m) => m.topic === '/robot/state');
  // The whole chunks of the killed file (the last, unfinished one was never on disk) and the five new.
  expect(states.length).toBeGreaterThanOrEqual(5 + 3 * 100);
  expect(states.filter((m) => m.ms < clock.now() - 60_000)).not.toHaveLength(0);
});

it('a directory where a segment would be neither stops the recorder starting nor is removed', async () => {
  const ring = ringDir();
  const inTheWay = join(ring, `seg-${clock.now() - 30_000}.mcap`);
  mkdirSync(inTheWay);
  const r = await start();
  await record(r, 5);
  const kept = await r.keepLast(1);
  expect((await readBack(r.kept.fileOf(kept.id))).counts['/robot/state']).toBe(5);
  expect(statSync(inTheWay).isDirectory()).toBe(true);
});

it('a finished segment whose footer points past its end is indexed again, not deleted', async () => {
  const ring = ringDir();
  const path = await segment(ring, 200, 'closed');
  const bytes = readFileSync(path);
  // The footer (opcode 0x02, length, summary start, summary offset start, crc) before the magic.
  const footer = bytes.length - 8 - (1 + 8 + 8 + 8 + 4);
  expect(bytes[footer]).toBe(0x02);
  bytes.writeBigUInt64LE(BigInt(bytes.length * 4), footer + 9);
  writeFileSync(path, bytes);
  const r = await start();
  expect(existsSync(path)).toBe(true);
  await record(r, 1);
  const kept = await r.keepLast(10);
  expect((await readBack(r.kept.fileOf(kept.id))).counts['/robot/state']).toBe(201);
});

it('a folder where the kept index would be is set aside, and the recorder starts and keeps', async () => {
  ringDir();
  const index = join(dir, 'recordings', 'kept', 'kept.json');
  mkdirSync(index, { recursive: true });
  const r = await start();
  await record(r, 5);
  const kept = await r.keepLast(1);
  expect(r.kept.list().map((k) => k.id)).toEqual([kept.id]);
  const aside = readdirSync(join(dir, 'recordings', 'kept')).filter((n) => n.startsWith('kept.json.corrupt-'));
  expect(aside).toHaveLength(1);
});

it.each(['recordings', join('recordings', 'kept'), join('recordings', 'ring')])(
  'a file at %s leaves the recorder off and says why, and its start does not fail',
  async (inTheWay) => {
    dir = mkdtempSync(join(tmpdir(), 'ring-start-'));
    mkdirSync(join(dir, inTheWay, '..'), { recursive: true });
    writeFileSync(join(dir, inTheWay), 'not a folder');
    const r = await start();
    const status = r.status();
    expect(status.recording).toBe(false);
    expect(status.problem).toMatch(/^the recorder could not start: Error: E(NOTDIR|EXIST)/);
    expect(r.kept.list()).toEqual([]);
    await expect(r.keepLast(1)).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    expect(() => r.kept.get('rec-20260101-000000-abcdef')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  },
);
