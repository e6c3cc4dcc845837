/**
 * A Server-Sent Events reader (WHATWG HTML "event stream interpretation"), shared by the
 * providers and the fake model servers' own tests. Lines end in LF, CRLF or a lone CR; a CR at
 * the end of a chunk is held back because it may be the first half of a CRLF split across
 * chunks (docs/platform.md, "Chat stream", the platform decoder does the same). Comment lines (`:`) are
 * dropped; an event is dispatched at a blank line, with its data lines joined by LF.
 */

export interface SseEvent {
  /** The `event:` field; absent for the default "message" type (OpenAI never names events). */
  event?: string;
  data: string;
}

/** Splits text into complete lines, returning them and the unfinished rest. */
export function splitLines(buffer: string): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < buffer.length; i += 1) {
    const ch = buffer[i];
    if (ch !== '\n' && ch !== '\r') continue;
    if (ch === '\r' && i === buffer.length - 1) break;
    lines.push(buffer.slice(start, i));
    if (ch === '\r' && buffer[i + 1] === '\n') i += 1;
    start = i + 1;
  }
  return { lines, rest: buffer.slice(start) };
}

/** Accumulates fields line by line; returns an event when a blank line completes one. */
export function createSseDecoder(): (line: string) => SseEvent | undefined {
  let event: string | undefined;
  let data: string[] = [];
  return (line) => {
    if (line === '') {
      if (data.length === 0) {
        event = undefined;
        return undefined;
      }
      const out: SseEvent = event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
      event = undefined;
      data = [];
      return out;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    return undefined;
  };
}

/** Reads an SSE body to its end. An event left without its closing blank line is dropped. */
export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const decode = createSseDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    const { lines, rest } = splitLines(buffer);
    buffer = rest;
    for (const line of lines) {
      const event = decode(line);
      if (event) yield event;
    }
  }
  buffer += decoder.decode();
  // A lone CR held back at the very end is a line end after all.
  const { lines } = splitLines(buffer.endsWith('\r') ? `${buffer}\n` : buffer);
  for (const line of lines) {
    const event = decode(line);
    if (event) yield event;
  }
}
