/**
 * Streams one firmware file to disk: never held whole in memory, refused beyond a size
 * cap (announced or actual), hashed as it arrives and kept only when its sha256 matches. Its
 * bound fits its size: the 15 s request bound to the headers, then as long as the announced size
 * takes at a slow but working rate, and never more than 15 s without a byte. Timers come from the
 * injected scheduler, so tests run on a manual clock.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ensureDir } from '../atomic-file.ts';
import { readJsonUpTo } from '../body-read.ts';
import { CADENCE, FIRMWARE, READ } from '../limits.ts';
import { httpFailure } from '../platform-http.ts';
import type { FetchLike, Outcome, Scheduler } from '../types.ts';

/** Why a download failed: `transient` is worth another try soon, `bad_bundle` is not. */
export interface DownloadRefusal {
  kind: 'bad_bundle' | 'download';
  message: string;
  transient: boolean;
}

export interface DownloadDeps {
  fetch?: FetchLike;
  scheduler: Scheduler;
  maxBytes?: number;
}

/** The whole bound of a file of `bytes`: headers, then the announced size at the slowest rate we accept. */
export function boundFor(bytes: number): number {
  return CADENCE.requestTimeoutMs + Math.ceil((bytes / FIRMWARE.minBytesPerSecond) * 1000);
}

const fail = (kind: DownloadRefusal['kind'], message: string, transient: boolean) => ({
  ok: false as const,
  failure: { kind, message, transient },
});

/** Writes a chunk, waiting for the disk when its buffer is full. */
function write(out: ReturnType<typeof createWriteStream>, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

/** Downloads `url` into `dest`; on any failure nothing is left at `dest`. */
export async function downloadToFile(
  deps: DownloadDeps,
  url: string,
  dest: string,
  sha256: string,
): Promise<Outcome<{ bytes: number }, DownloadRefusal>> {
  const maxBytes = deps.maxBytes ?? FIRMWARE.maxBytes;
  const controller = new AbortController();
  let why: string | null = null;
  const stop = (reason: string) => {
    why ??= reason;
    controller.abort();
  };
  const seconds = (ms: number) => Math.round(ms / 1000);
  let cancelOverall = deps.scheduler.after(CADENCE.requestTimeoutMs, () =>
    stop(`no answer within ${seconds(CADENCE.requestTimeoutMs)} s`),
  );
  let cancelIdle = (): void => undefined;
  const idle = () => {
    cancelIdle();
    cancelIdle = deps.scheduler.after(CADENCE.requestTimeoutMs, () => stop('the download stalled'));
  };
  const fetchFn: FetchLike = deps.fetch ?? ((input, init) => fetch(input, init));
  await ensureDir(dirname(dest));
  const out = createWriteStream(dest, { mode: 0o600 });
  const closed = new Promise<void>((resolve) => out.on('close', () => resolve()));
  let result: Outcome<{ bytes: number }, DownloadRefusal> | undefined;
  try {
    // Downloads may follow redirects (a CDN in front of storage): the sha256 check is what trusts them.
    const response = await fetchFn(url, { redirect: 'follow', signal: controller.signal });
    if (!response.ok) {
      const failure = httpFailure(response.status, await readJsonUpTo(response, READ.answerBytes));
      return (result = fail('download', failure.message, failure.retryable));
    }
    const announced = Number(response.headers.get('content-length') ?? NaN);
    if (Number.isFinite(announced) && announced > maxBytes)
      return (result = fail('bad_bundle', `is ${announced} bytes, over the ${maxBytes}-byte cap`, false));
    // The bound now fits the size: the announced one, or the cap when none is announced.
    cancelOverall();
    const bound = boundFor(Number.isFinite(announced) ? announced : maxBytes);
    cancelOverall = deps.scheduler.after(bound, () => stop(`not finished within ${seconds(bound)} s`));
    idle();
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of response.body ?? []) {
      idle();
      bytes += chunk.byteLength;
      if (bytes > maxBytes) return (result = fail('bad_bundle', `is over the ${maxBytes}-byte cap`, false));
      hash.update(chunk);
      await write(out, chunk);
    }
    if (hash.digest('hex') !== sha256) return (result = fail('bad_bundle', 'does not match its sha256', false));
    return (result = { ok: true, value: { bytes } });
  } catch (error) {
    return (result = fail('download', why ?? `download failed: ${(error as Error)?.message ?? String(error)}`, true));
  } finally {
    cancelOverall();
    cancelIdle();
    controller.abort();
    out.end();
    await closed;
    if (!result?.ok) await rm(dest, { force: true });
  }
}
