/**
 * Repairs a ring file a crash left without its summary (a kill -9, a power cut): every chunk
 * that reached the file whole is read back with the official stream reader, and the file is
 * rewritten with an index, so it opens like any other. The chunk being filled is lost.
 */
import { McapStreamReader } from '@mcap/core';
import { readFile, rename, rm } from 'node:fs/promises';
import { createMcapFile, msOf, openMcapReader } from './mcap-file.ts';
import { kindOfTopic, type ChannelKind } from './schemas.ts';

export interface Recovered {
  messages: number;
  /** Whether the file already had its footer (nothing to repair). */
  wasComplete: boolean;
}

interface Salvage {
  complete: boolean;
  messages: { kind: ChannelKind; ms: number; data: Uint8Array }[];
}

/** Reads records until the bytes run out or stop making sense. */
export function salvage(bytes: Uint8Array): Salvage {
  const reader = new McapStreamReader();
  const topics = new Map<number, string>();
  const messages: Salvage['messages'] = [];
  reader.append(bytes);
  try {
    for (let record = reader.nextRecord(); record; record = reader.nextRecord()) {
      if (record.type === 'Channel') topics.set(record.id, record.topic);
      if (record.type === 'Message') {
        const kind = kindOfTopic(topics.get(record.channelId) ?? '');
        if (kind) messages.push({ kind, ms: msOf(record.logTime), data: record.data });
      }
    }
  } catch {
    // A torn record at the end of a killed file: everything before it is kept.
  }
  return { complete: reader.done(), messages };
}

/** Whether the official indexed reader opens the file: its footer and summary point where they say. */
async function opensIndexed(path: string): Promise<boolean> {
  try {
    await (await openMcapReader(path)).close();
    return true;
  } catch {
    return false;
  }
}

export async function recoverFile(path: string): Promise<Recovered> {
  const found = salvage(await readFile(path));
  // A footer whose offsets lie reads to the end as a stream, yet no indexed reader opens it:
  // rewritten like a torn file, since its chunks are whole.
  if (found.complete && (await opensIndexed(path))) return { messages: found.messages.length, wasComplete: true };
  const temp = `${path}.recovering`;
  await rm(temp, { force: true });
  const out = await createMcapFile(temp);
  try {
    for (const m of found.messages) await out.add(m.kind, m.ms, m.data);
    await out.close();
  } catch (error) {
    // The damaged file is still there, whole, for the next try; the copy and its handle go.
    await out.abandon().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
  await rename(temp, path);
  return { messages: found.messages.length, wasComplete: false };
}
