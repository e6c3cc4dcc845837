/**
 * A disk that can fill up: `node:fs/promises` whose file handles write as a nearly full
 * partition does. A write that does not fit writes what fits and reports the short count; the
 * next one fails with ENOSPC, as it does while `disk.full` is set. A test swaps the module in with
 * vi.mock and this wrapper; reads, renames and deletes are left as they are. It also counts the
 * handles it opened and has not seen closed, so a test can tell a leak.
 */
import type * as FsPromises from 'node:fs/promises';

export interface FullDisk {
  /** Writes fail with ENOSPC while set. */
  full: boolean;
  /** Bytes left before writes fall short and then fail (Infinity: as many as the real disk takes). */
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

/** The bytes a write call names: `(buffer, offset?, length?)` or `(string)`. */
function bytesOf(args: unknown[]): Uint8Array {
  const [data, offset, length] = args as [Uint8Array | string, unknown, unknown];
  if (typeof data === 'string') return Buffer.from(data);
  const from = typeof offset === 'number' ? offset : 0;
  const to = typeof length === 'number' ? from + length : data.byteLength;
  return data.subarray(from, to);
}

/** How many of `length` bytes fit now; throws ENOSPC when none do. */
function take(length: number): number {
  disk.asked += length;
  if (length === 0) return 0;
  if (disk.full || disk.room <= 0) throw enospc();
  const fits = Math.min(length, disk.room);
  disk.room -= fits;
  return fits;
}

/** The real module, with `open` handing out handles that obey `disk`. */
export function withFullDisk(real: typeof FsPromises): typeof FsPromises {
  const open = async (...args: Parameters<typeof real.open>): Promise<FsPromises.FileHandle> => {
    const handle = await real.open(...args);
    disk.opened.add(handle);
    const write = handle.write.bind(handle) as (...a: unknown[]) => Promise<{ bytesWritten: number }>;
    const writeFile = handle.writeFile.bind(handle);
    const close = handle.close.bind(handle);
    return Object.assign(handle, {
      write: async (...a: unknown[]) => {
        const bytes = bytesOf(a);
        const fits = take(bytes.byteLength);
        return write(bytes, 0, fits);
      },
      // writeFile goes on writing after a short write, so it ends in ENOSPC after what fit.
      writeFile: async (data: string | Uint8Array) => {
        const bytes = bytesOf([data]);
        const fits = take(bytes.byteLength);
        await writeFile(bytes.subarray(0, fits));
        if (fits < bytes.byteLength) throw enospc();
      },
      close: async () => {
        disk.opened.delete(handle);
        return close();
      },
    });
  };
  return { ...real, open: open as typeof real.open };
}
