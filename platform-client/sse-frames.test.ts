import { describe, expect, it } from 'vitest';
import { READ } from './limits.ts';
import { FrameTooLong, sseData } from './sse-frames.ts';

const encoder = new TextEncoder();

async function frames(...chunks: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseData(
    (async function* () {
      for (const chunk of chunks) yield encoder.encode(chunk);
    })(),
  ))
    out.push(data);
  return out;
}

describe('sseData bounds', () => {
  it('reads a line just under the bound, split across chunks', async () => {
    const long = 'z'.repeat(READ.sseFrameChars - 10);
    const read = await frames('data: ', long.slice(0, 1000), long.slice(1000), '\r', '\n\r\ndata: [DONE]\n\n');
    expect(read.map((f) => f.length)).toEqual([long.length, 6]);
  });

  it('throws FrameTooLong for a line, and for a frame of many lines, past the bound', async () => {
    const over = 'z'.repeat(READ.sseFrameChars + 1);
    await expect(frames(': ', over)).rejects.toThrow(new FrameTooLong('line'));
    const lines = `data: ${'z'.repeat(1023)}\n`.repeat(1025);
    await expect(frames(lines)).rejects.toThrow('the platform sent a frame longer than 1 MiB');
  });
});
