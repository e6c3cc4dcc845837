/**
 * The room the black box leaves on its disk for the rest of the robot. Its byte bound
 * (ROBOT_RECORD_MB, 500 by default) says nothing of the disk it is on: on a small board's card it
 * could fill the disk, and then sign-in, settings and saved recordings could no longer be written.
 * So the ring also keeps a tenth of the disk, at most 1 GiB, free (ring.ts, pruneNow).
 */
import { statfs } from 'node:fs/promises';

export interface DiskRoom {
  /** Bytes an unprivileged writer may still use. */
  free: number;
  /** The filesystem's size in bytes. */
  total: number;
}

const GIB = 1024 ** 3;

/** The free bytes the recorder leaves alone on a filesystem of `total` bytes. */
export function freeFloor(total: number): number {
  return Math.min(GIB, Math.floor(total / 10));
}

/** The room on the filesystem holding `dir`; undefined when it cannot be read (then no floor is kept). */
export async function diskRoomOf(dir: string): Promise<DiskRoom | undefined> {
  try {
    const s = await statfs(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return undefined;
  }
}
