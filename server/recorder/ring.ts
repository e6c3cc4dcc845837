/**
 * The ring on disk: the recording is cut into short MCAP files (segments), each finished with
 * its index when it is closed, and the oldest are deleted to stay within the time and byte
 * bounds. Writes go through one queue, so a caller never waits on the disk; when the queue is
 * full a message is dropped and counted rather than held in memory without bound.
 *
 * The time bound counts recording time, each segment's span from its first message to its last,
 * not the wall clock's distance from now. A black box is read after something went wrong: a
 * robot powered off after a fall and started an hour later must still hold the minutes before
 * the fall, where "older than 10 minutes by the clock" deleted them at the first tick after the
 * start. A clock set while recording (a board without a real-time clock, synced once it is
 * online) neither deletes the ring nor keeps it past its length either: a span counts at most
 * one segment's length, and a clock set back cuts the segment.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../log.ts';
import { ensureDir } from '../store/atomic-write.ts';
import { diskRoomOf, freeFloor, type DiskRoom } from './disk-room.ts';
import { CHUNK_BYTES, createMcapFile, lastMessageMs, type McapFileWriter } from './mcap-file.ts';
import { recoverFile } from './recover.ts';
import type { ChannelKind } from './schemas.ts';

export interface Segment {
  path: string;
  startMs: number;
  /** The last message's time. */
  endMs: number;
  bytes: number;
}

export interface RingOptions {
  dir: string;
  maxMs: number;
  maxBytes: number;
  /** Length of one file; a kill loses at most the unfinished chunk of the open one. */
  segmentMs: number;
  log: Log;
  /** Bytes waiting for the disk before new messages are dropped. */
  maxPendingBytes?: number;
  /** Time windows still needed (a STOP's, a save being copied): their files are not deleted. */
  keep?: () => readonly (readonly [number, number])[];
  /** The room on the ring's disk; statfs of `dir` unless a test gives its own. */
  diskRoom?: () => Promise<DiskRoom | undefined>;
}

export interface Ring {
  open(): Promise<void>;
  write(kind: ChannelKind, ms: number, data: Uint8Array): void;
  /** Closes the open segment once what is queued now is written: it becomes readable. */
  rotate(): Promise<void>;
  /** Finished segments, oldest first. */
  segments(): readonly Segment[];
  /** Deletes the oldest finished segments beyond the bounds, except those a kept window needs. */
  prune(): Promise<void>;
  /**
   * The clock time from which the ring's last `ms` of recording starts: `now - ms` while it
   * recorded without a break, earlier across a stop or a restart; its oldest message's time when
   * it holds less.
   */
  reachBack(ms: number, now: number): number;
  stats(): { bytes: number; seconds: number; dropped: number; problem: string | null };
  close(): Promise<void>;
}

const NAME = /^seg-(\d{13})\.mcap$/;

const mib = (bytes: number): string => `${(Math.max(0, bytes) / 1024 ** 2).toFixed(1)} MiB`;

export function createRing(options: RingOptions): Ring {
  const maxPending = options.maxPendingBytes ?? 32 * 1024 * 1024;
  /** Each segment holds at most this share of the byte bound, so pruning stays fine-grained. */
  const segmentBytes = Math.max(64 * 1024, Math.floor(options.maxBytes / 20));
  const finished: Segment[] = [];
  let current: { file: McapFileWriter; segment: Segment } | undefined;
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  let dropped = 0;
  let problem: string | null = null;
  /**
   * Set by a failed write (a full disk, a file in the way): records are dropped and counted
   * instead of each trying the disk again, until the next prune tries once more.
   */
  let refused = false;
  /** Files a failed write or close (or start-up) left without their index; indexed once writes succeed. */
  const unindexed: Segment[] = [];
  /** A record has been written since the ring opened or last failed: the disk takes writes. */
  let writing = false;

  const enqueue = (task: () => Promise<void>): Promise<void> => {
    const run = queue.then(task).catch((error: unknown) => {
      // Once per failure, not once per record dropped after it.
      if (problem === null) options.log.warn('recorder write failed', { error: String(error) });
      problem = `recorder write failed: ${String(error)}`;
    });
    queue = run;
    return run;
  };

  /**
   * Room left for the open segment: it is cut at `segmentBytes` once a chunk has reached the
   * file, so on disk it holds at most that plus two chunks.
   */
  const headroom = segmentBytes + 2 * CHUNK_BYTES;
  /** A segment's recording time; a clock set forward while it was open counts one segment's length. */
  const spanOf = (s: Segment): number => Math.min(Math.max(0, s.endMs - s.startMs), options.segmentMs);
  /** The recording time held, open segment included. */
  const recorded = (): number =>
    [...finished, ...(current ? [current.segment] : [])].reduce((sum, s) => sum + spanOf(s), 0);
  const pruneNow = async (): Promise<void> => {
    const protect = options.keep?.() ?? [];
    const isProtected = (s: Segment) => protect.some(([from, to]) => s.startMs <= to && s.endMs >= from);
    const total = () => finished.reduce((sum, s) => sum + s.bytes, 0);
    // The recording after finished[i]: while that alone fills the ring's length, finished[i] is older than it.
    let after = recorded();
    // Bytes to free so the disk keeps its floor (disk-room.ts); each deleted segment frees its own.
    const room = await (options.diskRoom ?? (() => diskRoomOf(options.dir)))();
    let short = room ? freeFloor(room.total) - room.free : 0;
    for (let i = 0; i < finished.length;) {
      const s = finished[i] as Segment;
      after -= spanOf(s);
      const over = after >= options.maxMs || total() > options.maxBytes - headroom || short > 0;
      if (!over) break;
      if (isProtected(s)) {
        i += 1;
        continue;
      }
      finished.splice(i, 1);
      await rm(s.path, { force: true });
      short -= s.bytes;
    }
    if (short > 0 && room) {
      // Nothing more of the ring may go: it waits, dropping and counting, until the disk has room.
      if (!refused && problem === null) options.log.warn('recorder waits for room on its disk', { free: room.free });
      refused = true;
      problem = `the disk has ${mib(room.free)} free, under the ${mib(freeFloor(room.total))} the recorder leaves for the rest of the robot: it records again once there is room`;
    }
  };

  const closeCurrent = async (): Promise<void> => {
    if (!current) return;
    const { file, segment } = current;
    current = undefined;
    try {
      await file.close();
    } catch (error) {
      // Its whole chunks are on disk; it is indexed once the disk takes writes again.
      unindexed.push(segment);
      throw error;
    }
    segment.bytes = (await stat(segment.path)).size;
    finished.push(segment);
    // The bounds hold between ticks too: a closed segment makes room at once.
    await pruneNow();
  };

  const writeNow = async (kind: ChannelKind, ms: number, data: Uint8Array): Promise<void> => {
    if (refused) {
      dropped += 1;
      return;
    }
    try {
      const cut =
        current &&
        // A clock set back is a cut too: the segment's span stays true, and it cannot grow without end.
        (ms - current.segment.startMs >= options.segmentMs ||
          ms < current.segment.startMs ||
          current.file.bytes >= segmentBytes);
      if (cut) await closeCurrent();
      // The close's prune may have found the disk short of room.
      if (refused) {
        dropped += 1;
        return;
      }
      if (!current) {
        let startMs = ms;
        // Two segments in one millisecond (a rotate for a save, then the next message) keep apart.
        while ([...finished, ...unindexed].some((s) => s.startMs === startMs)) startMs += 1;
        const path = join(options.dir, `seg-${String(startMs).padStart(13, '0')}.mcap`);
        current = { file: await createMcapFile(path), segment: { path, startMs, endMs: ms, bytes: 0 } };
      }
      await current.file.add(kind, ms, data);
      current.segment.endMs = Math.max(current.segment.endMs, ms);
    } catch (error) {
      // The writer still holds the chunk it could not write and would write it again, bigger,
      // with every later record: the file ends here, at its last whole chunk.
      const broken = current;
      current = undefined;
      if (broken) {
        await broken.file.abandon().catch(() => {});
        unindexed.push(broken.segment);
      }
      refused = true;
      writing = false;
      dropped += 1;
      throw error;
    }
    writing = true;
    if (problem !== null) options.log.info('recorder writing again', { after: problem });
    problem = null;
  };

  /**
   * Indexes the files a failed write (or start-up) left without one, now that the disk takes
   * writes again. One try each: a file that still fails is left on disk for the next start.
   */
  const indexUnindexed = async (): Promise<void> => {
    for (const segment of unindexed.splice(0)) {
      try {
        await recoverFile(segment.path);
        segment.endMs = (await lastMessageMs(segment.path)) ?? segment.startMs;
      } catch (error) {
        options.log.warn('ring segment left for the next start', { path: segment.path, error: String(error) });
        continue;
      }
      segment.bytes = (await stat(segment.path)).size;
      // Older than the segments written since: it goes before them, and is pruned before them.
      const later = finished.findIndex((s) => s.startMs > segment.startMs);
      finished.splice(later === -1 ? finished.length : later, 0, segment);
    }
  };

  return {
    async open() {
      await ensureDir(options.dir);
      const names = (await readdir(options.dir)).filter((n) => NAME.test(n)).sort();
      for (const name of names) {
        const path = join(options.dir, name);
        const startMs = Number(NAME.exec(name)?.[1]);
        try {
          // A segment left open by a crash gets its index now; a finished one is left as it is.
          await recoverFile(path);
          finished.push({
            path,
            startMs,
            endMs: (await lastMessageMs(path)) ?? startMs,
            bytes: (await stat(path)).size,
          });
        } catch (error) {
          // A disk that refuses the rewrite (full) or a directory in the way is no reason to
          // delete the last minutes, nor to keep the cockpit from starting: it is tried again
          // once writes succeed, and left on disk for the next start if that fails too.
          options.log.warn('ring segment not indexed yet', { name, error: String(error) });
          unindexed.push({ path, startMs, endMs: startMs, bytes: 0 });
        }
      }
    },
    write(kind, ms, data) {
      if (pending + data.length > maxPending) {
        dropped += 1;
        return;
      }
      pending += data.length;
      void enqueue(async () => {
        try {
          await writeNow(kind, ms, data);
        } finally {
          pending -= data.length;
        }
      });
    },
    rotate: () => enqueue(closeCurrent),
    segments: () => finished,
    prune: () =>
      enqueue(async () => {
        refused = false;
        try {
          if (writing) await indexUnindexed();
        } finally {
          await pruneNow();
        }
      }),
    reachBack(ms, now) {
      const newestFirst = [...finished, ...(current ? [current.segment] : [])].reverse();
      let left = ms;
      for (const s of newestFirst) {
        const span = spanOf(s);
        if (span >= left) return Math.min(now - ms, s.endMs - left);
        left -= span;
      }
      return Math.min(now - ms, newestFirst.at(-1)?.startMs ?? now - ms);
    },
    stats() {
      const bytes = finished.reduce((sum, s) => sum + s.bytes, 0) + (current?.file.bytes ?? 0);
      return { bytes, seconds: recorded() / 1000, dropped, problem };
    },
    async close() {
      await enqueue(closeCurrent);
    },
  };
}
