/**
 * The device ask against the emulator (the wire of docs/platform.md, "Devices") and, with a scripted
 * fetch, the stream edge cases: frames split anywhere, CRLF, comments, a stall, a cancel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AskError, createDeviceAsk, type AskEvent } from './device-ask.ts';
import { createManualScheduler } from './test/manual-scheduler.ts';
import { startHarness, type Harness } from './test/client-harness.ts';
import type { FetchLike } from './types.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function collect(events: AsyncIterable<AskEvent>): Promise<AskEvent[]> {
  const out: AskEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
const signal = () => new AbortController().signal;
const textOf = (events: AskEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

describe('ask against the emulator', () => {
  it('posts {deviceId, token, text, stream: "1"} and streams the t frames until [DONE]', async () => {
    h = await startHarness();
    await h.client.start();
    const events = await collect(h.client.ask({ text: 'hello robot', signal: signal() }));
    expect(textOf(events)).toBe('You asked: hello robot');
    expect(events.every((e) => e.type === 'text')).toBe(true);
    const sent = h.emu.requests.find((r) => r.path === '/api/devices/ask');
    expect(sent?.body).toEqual({ ...h.device, text: 'hello robot', stream: '1' });
  });

  it('asks with a recording (audioUrl) instead of text, and names the agent that answers', async () => {
    h = await startHarness();
    await h.client.start();
    const seen: unknown[] = [];
    h.emu.setAskScript((text, _dev, extra) => {
      seen.push({ text, ...extra });
      return { text: 'heard' };
    });
    const audioUrl = `${h.emu.url.replace('http:', 'https:')}/media/rec`;
    expect(textOf(await collect(h.client.ask({ audioUrl, agent: 'helper', signal: signal() })))).toBe('heard');
    const sent = h.emu.requests.find((r) => r.path === '/api/devices/ask');
    expect(sent?.body).toEqual({ ...h.device, audioUrl, svc: 'helper', stream: '1' });
    expect(seen).toEqual([{ text: '[transcribed audio]', audioUrl, agent: 'helper' }]);
    const before = h.emu.requests.length;
    for (const bad of [
      { audioUrl: 'http://plain.example/a.wav' },
      { audioUrl, text: 'both' },
      { text: 'hi', agent: '' },
    ])
      await expect(collect(h.client.ask({ ...bad, signal: signal() }))).rejects.toMatchObject({
        failure: { kind: 'bad_request' },
      });
    expect(h.emu.requests.length).toBe(before);
  });

  it('yields an in-stream error as an error event, and skips cards', async () => {
    h = await startHarness();
    await h.client.start();
    h.emu.setAskScript(() => ({ text: 'Half an', card: { type: 'text' }, error: 'model overloaded' }));
    expect(await collect(h.client.ask({ text: 'x', signal: signal() }))).toEqual([
      { type: 'text', text: 'Half an' },
      { type: 'error', error: 'model overloaded' },
    ]);
  });

  it('throws for a stream cut off before [DONE]', async () => {
    h = await startHarness();
    await h.client.start();
    h.emu.setAskScript(() => ({ text: 'partial', cutOff: true }));
    await expect(collect(h.client.ask({ text: 'x', signal: signal() }))).rejects.toThrow(/cut off before \[DONE\]/);
  });

  it('throws for refusals: 402 passes through, a dead worker is 424, a wrong token is a strike', async () => {
    h = await startHarness();
    await h.client.start();
    h.emu.setAskScript(() => ({ status: 402, error: 'out of credit' }));
    await expect(collect(h.client.ask({ text: 'x', signal: signal() }))).rejects.toMatchObject({
      failure: { status: 402, workerError: 'out of credit' },
    });
    h.emu.setWorkerDown(true);
    await expect(collect(h.client.ask({ text: 'x', signal: signal() }))).rejects.toMatchObject({
      failure: { kind: 'unavailable', status: 424 },
    });
    h.emu.setWorkerDown(false);
    await h.owned('POST', '/api/devices/adopt', { deviceId: h.device.deviceId });
    await expect(collect(h.client.ask({ text: 'x', signal: signal() }))).rejects.toMatchObject({
      failure: { kind: 'unauthorized' },
    });
    expect(h.client.status().lastError).toMatchObject({
      kind: 'unauthorized',
      message: expect.stringContaining('/api/devices/ask'),
    });
  });

  it('refuses without sending when not enrolled, or for empty or over-4000-character text', async () => {
    h = await startHarness({ enrolled: false });
    await h.client.start();
    await expect(collect(h.client.ask({ text: 'x', signal: signal() }))).rejects.toThrow(/not enrolled/);
    await h.client.enrol({ platformUrl: h.emu.url, ...h.device });
    await expect(collect(h.client.ask({ text: ' ', signal: signal() }))).rejects.toThrow(/empty/);
    await expect(collect(h.client.ask({ text: 'x'.repeat(4001), signal: signal() }))).rejects.toMatchObject({
      failure: { kind: 'too_large' },
    });
    expect(h.emu.requests.filter((r) => r.path === '/api/devices/ask')).toHaveLength(0);
  });
});

/**
 * A fetch answering with the given chunks; the body errors when the request is aborted. With
 * `hold` the body then stays open, and `onWaiting` runs when the reader has taken every chunk
 * and asks for more: the moment the stream is stalled, a readiness signal for the test.
 */
function scriptedFetch(
  chunks: Array<string | Uint8Array>,
  options: { hold?: boolean; onWaiting?: () => void } = {},
): FetchLike {
  return async (_url, init) => {
    const bytes = chunks.map((c) => (typeof c === 'string' ? new TextEncoder().encode(c) : c));
    let next = 0;
    // A high-water mark of 0: pull() runs only when the reader asks, never ahead of it.
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
        pull(controller) {
          const chunk = bytes[next];
          next += 1;
          if (chunk) controller.enqueue(chunk);
          else if (!options.hold) controller.close();
          else options.onWaiting?.();
        },
      },
      new CountQueuingStrategy({ highWaterMark: 0 }),
    );
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

const identity = { platformUrl: 'https://platform.example', deviceId: 'dev-1', token: 'tind_secret_token' };
const quietOutcome = () => undefined;

describe('ask stream edge cases', () => {
  it('reads frames split anywhere, CRLF line ends, multi-line data, comments and split UTF-8', async () => {
    const euro = new TextEncoder().encode('data: {"t":"5 €"}\r\n\r\n');
    const cut = euro.indexOf(0xe2) + 1;
    const fetch = scriptedFetch([
      ': thinking\r',
      '\n\r\ndata: {"t":"0"}\r',
      '\n\r\nda',
      'ta: {"t":" ok"}\n\n',
      euro.slice(0, cut),
      euro.slice(cut),
      'data: {"t":\ndata: "!"}\n\n',
      'data: [DONE]\n\n',
    ]);
    const ask = createDeviceAsk({
      identity: () => identity,
      scheduler: createManualScheduler(),
      fetch,
      onOutcome: quietOutcome,
    });
    expect(textOf(await collect(ask({ text: 'x', signal: signal() })))).toBe('0 ok5 €!');
  });

  it('gives up on a stream silent for 25 s, and ends at once when the caller aborts', async () => {
    const sched = createManualScheduler();
    // Each ask's reader resolves the next of these when it has taken "hi" (re-arming the idle
    // timer) and waits for more.
    const waits: Array<() => void> = [];
    const waiting = () => new Promise<void>((resolve) => waits.push(resolve));
    const ask = createDeviceAsk({
      identity: () => identity,
      scheduler: sched,
      fetch: scriptedFetch(['data: {"t":"hi"}\n\n'], { hold: true, onWaiting: () => waits.shift()?.() }),
      onOutcome: quietOutcome,
    });
    const stalledWaits = waiting();
    const stalled = collect(ask({ text: 'x', signal: signal() }));
    stalled.catch(() => undefined);
    await stalledWaits;
    await sched.advance(25_000);
    await expect(stalled).rejects.toMatchObject({ failure: { kind: 'timeout' } });
    expect(sched.pending()).toBe(0);

    const caller = new AbortController();
    const cancelledWaits = waiting();
    const cancelled = collect(ask({ text: 'x', signal: caller.signal }));
    cancelled.catch(() => undefined);
    await cancelledWaits;
    caller.abort();
    await expect(cancelled).rejects.toThrow(/cancelled/);
    await expect(cancelled).rejects.not.toBeInstanceOf(AskError);
  });

  it('refuses a line longer than 1 MiB as a bad response, without reading on', async () => {
    // 4 MiB of one line: a reader without the bound takes it all and ends "cut off before [DONE]".
    const piece = 'x'.repeat(64 * 1024);
    const ask = createDeviceAsk({
      identity: () => identity,
      scheduler: createManualScheduler(),
      fetch: scriptedFetch(['data: {"t":"', ...Array<string>(64).fill(piece)]),
      onOutcome: quietOutcome,
    });
    await expect(collect(ask({ text: 'x', signal: signal() }))).rejects.toMatchObject({
      failure: { kind: 'bad_response', message: 'the platform sent a line longer than 1 MiB', retryable: true },
    });
  });
});
