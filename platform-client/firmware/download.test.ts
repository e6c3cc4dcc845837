import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CADENCE, FIRMWARE } from '../limits.ts';
import { createManualScheduler } from '../test/manual-scheduler.ts';
import { startPlatformEmulator, type PlatformEmulator } from '../test/platform-emulator.ts';
import type { FetchLike } from '../types.ts';
import { boundFor, downloadToFile } from './download.ts';

const sha = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
let emu: PlatformEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function dest(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'fw-dl-')), 'files', 'app.bin');
}

/** A fetch answering one streamed body the test feeds chunk by chunk. */
function streamingFetch(headers: Record<string, string>) {
  let feed!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
  const fetchFn: FetchLike = (_url, init) => {
    init?.signal?.addEventListener('abort', () => feed.error(new DOMException('aborted', 'AbortError')));
    return Promise.resolve(new Response(body, { status: 200, headers }));
  };
  return { fetchFn, feed: () => feed };
}

describe('firmware download', () => {
  it('streams a file to disk and keeps it only when its sha256 matches', async () => {
    emu = await startPlatformEmulator();
    const content = 'x'.repeat(100_000);
    const url = emu.hostFile('/fw/app.bin', content);
    const sched = createManualScheduler();
    const ok = await dest();
    expect(await downloadToFile({ scheduler: sched }, url, ok, sha(content))).toEqual({
      ok: true,
      value: { bytes: 100_000 },
    });
    expect(await readFile(ok, 'utf8')).toBe(content);
    const bad = await dest();
    expect(await downloadToFile({ scheduler: sched }, url, bad, sha('other'))).toMatchObject({
      ok: false,
      failure: { kind: 'bad_bundle', message: 'does not match its sha256', transient: false },
    });
    expect(existsSync(bad)).toBe(false);
    expect(sched.pending()).toBe(0);
  });

  it('refuses a file over the cap, announced or streamed, and leaves nothing behind', async () => {
    emu = await startPlatformEmulator();
    const url = emu.hostFile('/fw/big.bin', 'y'.repeat(2_000));
    const sched = createManualScheduler();
    const announced = await dest();
    expect(await downloadToFile({ scheduler: sched, maxBytes: 1_000 }, url, announced, sha('y'))).toMatchObject({
      ok: false,
      failure: { kind: 'bad_bundle', message: 'is 2000 bytes, over the 1000-byte cap' },
    });
    expect(existsSync(announced)).toBe(false);
    const { fetchFn, feed } = streamingFetch({});
    const streamed = await dest();
    const running = downloadToFile(
      { scheduler: sched, maxBytes: 1_000, fetch: fetchFn },
      'https://cdn.example/x',
      streamed,
      sha('z'),
    );
    feed().enqueue(new Uint8Array(800));
    feed().enqueue(new Uint8Array(800));
    expect(await running).toMatchObject({ ok: false, failure: { message: 'is over the 1000-byte cap' } });
    expect(existsSync(streamed)).toBe(false);
    expect(FIRMWARE.maxBytes).toBeGreaterThanOrEqual(256 * 1024 * 1024);
  });

  it('gives a file a bound that fits its announced size, on the injected clock', async () => {
    const size = 1024 * 1024;
    const bound = boundFor(size);
    expect(bound).toBe(CADENCE.requestTimeoutMs + 8_000);
    expect(boundFor(100 * size)).toBeGreaterThan(10 * 60_000);
    const sched = createManualScheduler();
    const { fetchFn, feed } = streamingFetch({ 'content-length': String(size) });
    const file = await dest();
    const running = downloadToFile({ scheduler: sched, fetch: fetchFn }, 'https://cdn.example/x', file, sha('never'));
    // Headers are in: the bound is now the size's, and a chunk every 10 s keeps the idle bound away.
    await vi.waitFor(() => expect(sched.dueIn()).toEqual([CADENCE.requestTimeoutMs, bound]));
    // 0, 10 and 20 s: a chunk each time (the idle bound starts again at 15 s), then the size's bound ends it.
    for (let i = 0; i < 3; i += 1) {
      feed().enqueue(new Uint8Array(1000));
      await vi.waitFor(() => expect(sched.dueIn()).toContain(CADENCE.requestTimeoutMs));
      await sched.advance(10_000);
    }
    expect(await running).toMatchObject({
      ok: false,
      failure: { kind: 'download', message: `not finished within ${bound / 1000} s`, transient: true },
    });
    expect(existsSync(file)).toBe(false);
  });
});
