/**
 * A disk that can fill up: `node:fs/promises` with file handles whose writes fail with ENOSPC
 * while `disk.full` is set or once `disk.room` bytes are used, as a full data partition answers. A test swaps the module in with
 * vi.mock and this wrapper; reads, renames and deletes are left as they are. It also counts the
 * handles it opened and has not seen closed, so a test can tell a leak.
 */
import type * as FsPromises from 'node:fs/promises';

export interface FullDisk {
  /** Writes fail with ENOSPC while set. */
  full: boolean;
  /** Bytes left before writes fail with ENOSPC (Infinity: as many as the real disk takes). */
  room: number;
  /** Handles opened and not closed yet. */
  openHandles(): number;
  /** Bytes every write call was asked to write, whether or not it could. */
  bytesAsked(): number;
}

export const disk: FullDisk & { opened: Set<FsPromises.FileHandle>; asked: number } = {
  full: false,
  room: Infinity,
  opened: new Set(),
  asked: 0,
  openHandles: () => disk.opened.size,
  bytesAsked: () => disk.asked,
};

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
}

/** The real module, with `open` handing out handles that obey `disk`. */
export function withFullDisk(real: typeof FsPromises): typeof FsPromises {
  const open = async (...args: Parameters<typeof real.open>): Promise<FsPromises.FileHandle> => {
    const handle = await real.open(...args);
    disk.opened.add(handle);
    const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<unknown>;
    const writeFile = handle.writeFile.bind(handle);
    const close = handle.close.bind(handle);
    return Object.assign(handle, {
      write: async (...a: unknown[]) => {
        const data = a[0] as Uint8Array | string;
        const length = typeof a[2] === 'number' ? a[2] : typeof data === 'string' ? data.length : data.byteLength;
        disk.asked += length;
        if (disk.full || length > disk.room) throw enospc();
        disk.room -= length;
        return write(...a);
      },
      writeFile: async (...a: Parameters<typeof writeFile>) => {
        if (disk.full) throw enospc();
        return writeFile(...a);
      },
      close: async () => {
        disk.opened.delete(handle);
        return close();
      },
    });
  };
  return { ...real, open: open as typeof real.open };
}
