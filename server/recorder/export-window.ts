/**
 * Copies the messages of a time window out of the ring's finished segments into one new indexed
 * MCAP file: what a kept recording is. The ring can then delete its segments freely.
 */
import { rename, rm } from 'node:fs/promises';
import { createMcapFile, msOf, nsOf, openMcapReader } from './mcap-file.ts';
import type { Segment } from './ring.ts';
import { kindOfTopic } from './schemas.ts';

export interface Exported {
  messages: number;
  firstMs: number;
  lastMs: number;
}

/** Writes `[fromMs, toMs]` of `segments` to `outPath`; undefined (and no file) when it is empty. */
export async function exportWindow(
  segments: readonly Segment[],
  fromMs: number,
  toMs: number,
  outPath: string,
): Promise<Exported | undefined> {
  const temp = `${outPath}.tmp`;
  await rm(temp, { force: true });
  const out = await createMcapFile(temp);
  let messages = 0;
  let firstMs = Infinity;
  let lastMs = -Infinity;
  try {
    // Not filtered on startMs: a segment opened in the same millisecond as another is named (and
    // started) a millisecond or more later than its first message (ring.ts), and a window ending
    // at that message would skip it. The indexed reader skips a segment with nothing in the window.
    for (const segment of segments.filter((s) => s.endMs >= fromMs)) {
      const { reader, close } = await openMcapReader(segment.path);
      try {
        for await (const message of reader.readMessages({ startTime: nsOf(fromMs), endTime: nsOf(toMs) })) {
          const kind = kindOfTopic(reader.channelsById.get(message.channelId)?.topic ?? '');
          if (!kind) continue;
          const ms = msOf(message.logTime);
          await out.add(kind, ms, message.data);
          messages += 1;
          firstMs = Math.min(firstMs, ms);
          lastMs = Math.max(lastMs, ms);
        }
      } finally {
        await close();
      }
    }
    await out.close();
  } catch (error) {
    await out.abandon().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
  if (messages === 0) {
    await rm(temp, { force: true });
    return undefined;
  }
  await rename(temp, outPath);
  return { messages, firstMs, lastMs };
}
