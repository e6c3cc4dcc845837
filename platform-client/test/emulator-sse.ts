/**
 * Writing server-sent events for the emulator: fixed frames written a tick apart (the device
 * ask's scripted answer) and live streams written as they happen (the chat stream, keep-alives).
 * Frames are `data: <payload>` plus a blank line; comments are `: <text>` (docs/platform.md
 * "Chat stream").
 */
import type { ServerResponse } from 'node:http';
import type { SseOut } from './emulator-context.ts';

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** Frames go out one write at a time, a tick apart, so the client reads a real stream. */
export async function writeFrames(res: ServerResponse, frames: string[]): Promise<void> {
  res.writeHead(200, SSE_HEADERS);
  for (const frame of frames) {
    if (res.destroyed) return;
    res.write(frame);
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

/** Runs a live stream: the response ends when `live` settles, or when the client goes away. */
export async function writeLive(res: ServerResponse, live: (out: SseOut) => Promise<void>): Promise<void> {
  res.writeHead(200, SSE_HEADERS);
  let closed = false;
  const gone = new Promise<void>((resolve) =>
    res.on('close', () => {
      closed = true;
      resolve();
    }),
  );
  const write = (text: string) => {
    if (!closed && !res.destroyed) res.write(text);
  };
  const out: SseOut = {
    data: (value) => write(`data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    get closed() {
      return closed || res.destroyed;
    },
    gone,
  };
  try {
    await live(out);
  } finally {
    closed = true;
    if (!res.destroyed) res.end();
  }
}

/** Calls `fn` every `ms` on the emulator's timers until the returned function is called. */
export function every(
  timers: { after(ms: number, fn: () => void): () => void },
  ms: number,
  fn: () => void,
): () => void {
  let cancel = timers.after(ms, tick);
  let stopped = false;
  function tick(): void {
    if (stopped) return;
    fn();
    cancel = timers.after(ms, tick);
  }
  return () => {
    stopped = true;
    cancel();
  };
}
