/**
 * What a store finds at its path at start, before it reads a byte: a file it can read whole, no
 * file, or something it must not read and sets aside instead. A folder cannot be read; a file of
 * gigabytes would be read whole into memory (past 2 GiB Node refuses, past 512 MiB the text cannot
 * be made) and stop the start; a pipe or a device (a link to /dev/zero) is read forever.
 */
import { readFile, stat } from 'node:fs/promises';

export type Stored = { text: string } | { missing: true } | { unusable: string };

export async function readStored(file: string, maxBytes: number): Promise<Stored> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    throw error;
  }
  if (info.isDirectory()) return { unusable: 'a folder, not a file' };
  if (!info.isFile()) return { unusable: 'not a regular file' };
  if (info.size > maxBytes) return { unusable: `${info.size} bytes, over the ${maxBytes} it may hold` };
  return { text: await readFile(file, 'utf8') };
}
