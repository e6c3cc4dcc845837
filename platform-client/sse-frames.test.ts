import { describe, expect, it, vi } from 'vitest';
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

  it('scans each byte of a line sent a byte at a time about once, not once per byte after it', async () => {
    const line = 'data: ' + 'x'.repeat(20_000);
    // Counts the characters the decoder normalises (its CR/LF pass), the work a line costs.
    const replace = vi.spyOn(String.prototype, 'replace');
    try {
      expect(await frames(...line, '\r', '\n', '\r\n')).toEqual(['x'.repeat(20_000)]);
      const scanned = replace.mock.contexts.reduce<number>((sum, text) => sum + String(text).length, 0);
      expect(scanned).toBeLessThan(4 * line.length);
    } finally {
      replace.mockRestore();
    }
  });
});
