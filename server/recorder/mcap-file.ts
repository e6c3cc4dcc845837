/**
 * MCAP files on disk: a writable and a readable over a file handle, a writer that registers every
 * recorder channel up front (same ids in every file), and the official indexed reader over a file.
 */
import { McapIndexedReader, McapWriter, type IWritable, type McapTypes } from '@mcap/core';
import type { FileHandle } from 'node:fs/promises';
import { open, rm, stat } from 'node:fs/promises';
import { FILE_MODE } from '../store/atomic-write.ts';
import { CHANNEL_KINDS, CHANNELS, schemaName, type ChannelKind } from './schemas.ts';

/** Chunks this big are closed and indexed; a kill loses at most the chunk being filled. */
export const CHUNK_BYTES = 256 * 1024;

const encoder = new TextEncoder();

export const nsOf = (ms: number): bigint => BigInt(Math.round(ms)) * 1_000_000n;
export const msOf = (ns: bigint): number => Number(ns / 1_000_000n);

class FileWritable implements IWritable {
  #position = 0n;
  constructor(readonly handle: FileHandle) {}
  async write(buffer: Uint8Array): Promise<void> {
    let done = 0;
    while (done < buffer.length) {
      const { bytesWritten } = await this.handle.write(buffer, done, buffer.length - done);
      done += bytesWritten;
    }
    this.#position += BigInt(buffer.length);
  }
  position(): bigint {
    return this.#position;
  }
}

export interface McapFileWriter {
  /** Bytes handed to the file so far (closed chunks plus header). */
  readonly bytes: number;
  /**
   * Adds a message; a chunk that is full is written. After a failed write the writer still holds
   * the chunk it could not write and would write it again with the next one: abandon the file.
   */
  add(kind: ChannelKind, ms: number, data: Uint8Array): Promise<void>;
  /**
   * Writes the last chunk and the summary with its indexes, then closes the file. The handle is
   * closed even when a write fails.
   */
  close(): Promise<void>;
  /** Closes the file without a summary (shutdown in a hurry, tests of a killed writer). */
  abandon(): Promise<void>;
}

export async function createMcapFile(path: string): Promise<McapFileWriter> {
  const handle = await open(path, 'wx', FILE_MODE);
  const writable = new FileWritable(handle);
  const writer = new McapWriter({ writable, chunkSize: CHUNK_BYTES });
  try {
    await writer.start({ profile: '', library: 'robot-cockpit recorder' });
  } catch (error) {
    // A full disk refuses even the header: the file holds nothing, and a handle left open here
    // would be one more leaked each time the caller tries again.
    await handle.close().catch(() => {});
    await rm(path, { force: true }).catch(() => {});
    throw error;
  }
  const ids = new Map<ChannelKind, number>();
  for (const kind of CHANNEL_KINDS) {
    const schemaId = await writer.registerSchema({
      name: schemaName(kind),
      encoding: 'jsonschema',
      data: encoder.encode(JSON.stringify(CHANNELS[kind].schema)),
    });
    ids.set(
      kind,
      await writer.registerChannel({
        schemaId,
        topic: CHANNELS[kind].topic,
        messageEncoding: 'json',
        metadata: new Map(),
      }),
    );
  }
  let sequence = 0;
  return {
    get bytes() {
      return Number(writable.position());
    },
    async add(kind, ms, data) {
      const logTime = nsOf(ms);
      await writer.addMessage({
        channelId: ids.get(kind) as number,
        sequence: sequence++,
        logTime,
        publishTime: logTime,
        data,
      });
    },
    async close() {
      try {
        await writer.end();
      } finally {
        await handle.close();
      }
    },
    abandon: () => handle.close(),
  };
}

/** The official reader's view of a file: it reads ranges on demand. */
export async function openMcapReader(path: string): Promise<{ reader: McapIndexedReader; close(): Promise<void> }> {
  const handle = await open(path, 'r');
  try {
    const size = BigInt((await handle.stat()).size);
    const readable: McapTypes.IReadable = {
      size: async () => size,
      async read(offset, length) {
        const buffer = new Uint8Array(Number(length));
        await handle.read(buffer, 0, buffer.length, Number(offset));
        return buffer;
      },
    };
    const reader = await McapIndexedReader.Initialize({ readable });
    return { reader, close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export function jsonOf(message: { data: Uint8Array }): unknown {
  return JSON.parse(
    Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength).toString('utf8'),
  );
}

/** The time of a finished file's last message, from its statistics; undefined when empty. */
export async function lastMessageMs(path: string): Promise<number | undefined> {
  const { reader, close } = await openMcapReader(path);
  try {
    const stats = reader.statistics;
    return stats && stats.messageCount > 0n ? msOf(stats.messageEndTime) : undefined;
  } finally {
    await close();
  }
}

/** A finished file's times, length, size and message count, from its summary; undefined when empty. */
export async function describeFile(
  path: string,
): Promise<{ startedAt: string; endedAt: string; seconds: number; bytes: number; messages: number } | undefined> {
  const { reader, close } = await openMcapReader(path);
  try {
    const stats = reader.statistics;
    if (!stats || stats.messageCount === 0n) return undefined;
    const first = msOf(stats.messageStartTime);
    const last = msOf(stats.messageEndTime);
    return {
      startedAt: new Date(first).toISOString(),
      endedAt: new Date(last).toISOString(),
      seconds: Math.round((last - first) / 100) / 10,
      bytes: (await stat(path)).size,
      messages: Number(stats.messageCount),
    };
  } finally {
    await close();
  }
}
