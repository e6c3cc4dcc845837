/**
 * Server-sent event frames as the platform writes them: `data: <payload>` lines, a blank line
 * between frames, `:` comment lines as keep-alives (`: thinking` on the device ask, `: ping` on
 * chat). The reader follows the web client's decoder (docs/platform.md, "Chat stream"): CR and CRLF become LF,
 * a trailing lone CR is held back because it may be half of a CRLF split across chunks, and
 * comment frames are dropped.
 *
 * A line, and one frame's data, hold at most READ.sseFrameChars characters: past that the read
 * throws FrameTooLong, where it would otherwise gather a line without end for as long as the
 * stream's watchdog is fed.
 */
import { READ } from './limits.ts';

/** A line or a frame ran past READ.sseFrameChars; its message is the sentence to show. */
export class FrameTooLong extends Error {
  constructor(what: 'line' | 'frame') {
    super(`the platform sent a ${what} longer than ${READ.sseFrameChars / (1024 * 1024)} MiB`);
    this.name = 'FrameTooLong';
  }
}

/** Splits a byte stream into the data payloads of its frames (several data lines join with LF). */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  // The line not ended yet, and whether a CR was held back after it.
  let partial = '';
  let heldCr = false;
  let data: string[] = [];
  let size = 0;
  // Only the new text is scanned: scanning the whole unfinished line again at every chunk made a
  // line sent a byte at a time cost the square of its length (minutes of CPU for 1 MiB).
  const lines = function* (text: string): Generator<string> {
    let incoming = heldCr ? `\r${text}` : text;
    heldCr = incoming.endsWith('\r');
    if (heldCr) incoming = incoming.slice(0, -1);
    const parts = incoming.replace(/\r\n?/g, '\n').split('\n');
    const rest = parts.pop() ?? '';
    if (parts.length > 0) {
      parts[0] = partial + parts[0];
      partial = rest;
    } else partial += rest;
    if (partial.length + (heldCr ? 1 : 0) > READ.sseFrameChars) throw new FrameTooLong('line');
    yield* parts;
  };
  const addData = (line: string): void => {
    const value = line.slice(line.startsWith('data: ') ? 6 : 5);
    size += value.length + 1;
    if (size > READ.sseFrameChars) throw new FrameTooLong('frame');
    data.push(value);
  };
  const flush = (): string | null => {
    const frame = data.length > 0 ? data.join('\n') : null;
    data = [];
    size = 0;
    return frame;
  };
  for await (const chunk of body) {
    for (const line of lines(decoder.decode(chunk, { stream: true }))) {
      if (line === '') {
        const frame = flush();
        if (frame !== null) yield frame;
      } else if (line.startsWith('data:')) addData(line);
      // Comments (`:`) and other fields (event, id, retry) carry nothing the device ask uses.
    }
  }
  for (const line of lines(`${decoder.decode()}\n`)) {
    if (line.startsWith('data:')) addData(line);
  }
  const last = flush();
  if (last !== null) yield last;
}
