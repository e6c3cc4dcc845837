/**
 * A Server-Sent Events reader (WHATWG HTML "event stream interpretation"), shared by the
 * providers and the fake model servers' own tests. Lines end in LF, CRLF or a lone CR; a CR at
 * the end of a chunk is held back because it may be the first half of a CRLF split across
 * chunks (docs/platform.md, "Chat stream", the platform decoder does the same). Comment lines (`:`) are
 * dropped; an event is dispatched at a blank line, with its data lines joined by LF.
 *
 * The server is whatever the owner pointed the robot at, so what it may make the reader hold is
 * bounded: a line, and an event's data, of at most `SSE_FRAME_LIMIT` characters (a model's
 * chunk is a few hundred). Past that the read fails with a sentence about the server, where it
 * would otherwise gather a line without end until the turn's watchdog fired. Each chunk's text
 * is scanned once, so a long line costs its length, not its length squared.
 */

/** The longest line, and the most data one event may carry: 1 MiB of characters. */
export const SSE_FRAME_LIMIT = 1 << 20;

export interface SseEvent {
  /** The `event:` field; absent for the default "message" type (OpenAI never names events). */
  event?: string;
  data: string;
}

/**
 * Splits text into complete lines, returning them and the unfinished rest. `from` is where the
 * scan starts: text before it is known to hold no line end (the rest of the last call), but for
 * a CR held back at its very end.
 */
export function splitLines(buffer: string, from = 0): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let start = 0;
  for (let i = from; i < buffer.length; i += 1) {
    const ch = buffer[i];
    if (ch !== '\n' && ch !== '\r') continue;
    if (ch === '\r' && i === buffer.length - 1) break;
    lines.push(buffer.slice(start, i));
    if (ch === '\r' && buffer[i + 1] === '\n') i += 1;
    start = i + 1;
  }
  return { lines, rest: buffer.slice(start) };
}

const overLimit = (what: string) => new Error(`the server sent ${what} longer than ${SSE_FRAME_LIMIT / (1 << 20)} MiB`);

/** Accumulates fields line by line; returns an event when a blank line completes one. */
export function createSseDecoder(): (line: string) => SseEvent | undefined {
  let event: string | undefined;
  let data: string[] = [];
  let size = 0;
  return (line) => {
    if (line === '') {
      if (data.length === 0) {
        event = undefined;
        return undefined;
      }
      const out: SseEvent = event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
      event = undefined;
      data = [];
      size = 0;
      return out;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      size += value.length + 1;
      if (size > SSE_FRAME_LIMIT) throw overLimit('an event');
      data.push(value);
    }
    return undefined;
  };
}

/**
 * Reads an SSE body to its end. An event left without its closing blank line is dropped. A line
 * or an event over `SSE_FRAME_LIMIT` throws, which the caller reports as a broken stream.
 */
export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const decode = createSseDecoder();
  let rest = '';
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    const split = splitLines(rest + text, Math.max(0, rest.length - 1));
    rest = split.rest;
    if (rest.length > SSE_FRAME_LIMIT) throw overLimit('a line');
    for (const line of split.lines) {
      const event = decode(line);
      if (event) yield event;
    }
  }
  rest += decoder.decode();
  // A lone CR held back at the very end is a line end after all.
  const { lines } = splitLines(rest.endsWith('\r') ? `${rest}\n` : rest);
  for (const line of lines) {
    const event = decode(line);
    if (event) yield event;
  }
}
