/**
 * A server that says odd things, seen through the client's own fetch: every request goes to the
 * real double (the platform emulator, a fake model server, the fake chat-bot API) and, for a share of the answers, one
 * or two members of the JSON body are changed (json-mutation.ts). Streamed answers
 * (`text/event-stream`) keep their framing and have a share of their `data:` lines changed the
 * same way, so a turn meets odd frames mid-stream. Status codes are left alone: the proof is about
 * bodies a client must not trust, not about failure policies, which have tests of their own.
 * Seeded; `mutations` keeps the newest changes for a failure message.
 */
import { seeded } from './fuzz.ts';
import { mutateJson } from './json-mutation.ts';

/** The fetch both clients take (platform-client/types.ts, server/agent/providers/types.ts). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface MutatingFetch {
  fetch: FetchLike;
  /** The shares of answers and of stream frames changed from now on; 0 turns the chaos off. */
  setRate(rate: number, frameRate?: number): void;
  readonly mutations: string[];
  counts(): { passed: number; mutated: number };
}

/** Statuses whose answer has no body to change. */
const NO_BODY = new Set([101, 204, 205, 304]);

export interface MutatingFetchOptions {
  seed: number;
  /** Share of whole JSON answers changed. */
  rate: number;
  /** Share of stream frames changed, on its own since a turn has many frames (default `rate`). */
  frameRate?: number;
  /** Stream frames passed unchanged whatever the rate (their `data:` text). */
  spareFrame?: (data: string) => boolean;
  fetch?: FetchLike;
}

export function mutatingFetch(options: MutatingFetchOptions): MutatingFetch {
  const rng = seeded(options.seed);
  const inner: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const mutations: string[] = [];
  const counts = { passed: 0, mutated: 0 };
  let rate = options.rate;
  let frameRate = options.frameRate ?? options.rate;
  const spareFrame = options.spareFrame ?? (() => false);

  const maybe = (text: string, where: string, share = rate): string => {
    if (rng() >= share) {
      counts.passed += 1;
      return text;
    }
    counts.mutated += 1;
    return mutateJson(text, rng, where, mutations);
  };

  /** The stream with a share of its `data:` lines changed; line ends and comments pass as they came. */
  const streamed = (body: ReadableStream<Uint8Array>, where: string): ReadableStream<Uint8Array> => {
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let held = '';
    const lines = (text: string): string =>
      text.replace(/^data: ?(.*)$/gm, (line, data: string) =>
        data === '[DONE]' || spareFrame(data) ? line : `data: ${maybe(data, where, frameRate)}`,
      );
    return body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          held += decoder.decode(chunk, { stream: true });
          const end = held.lastIndexOf('\n') + 1;
          if (end === 0) return;
          out.enqueue(encoder.encode(lines(held.slice(0, end))));
          held = held.slice(end);
        },
        flush(out) {
          held += decoder.decode();
          if (held !== '') out.enqueue(encoder.encode(lines(held)));
        },
      }),
    );
  };

  return {
    async fetch(input, init) {
      const response = await inner(input, init);
      const where = `${init?.method ?? 'GET'} ${new URL(input).pathname}`;
      const type = response.headers.get('content-type') ?? '';
      if (NO_BODY.has(response.status) || response.body === null) return response;
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      const rebuilt = (body: ConstructorParameters<typeof Response>[0]) =>
        new Response(body, { status: response.status, statusText: response.statusText, headers });
      if (type.includes('text/event-stream')) return rebuilt(streamed(response.body, where));
      if (type.includes('json')) return rebuilt(maybe(await response.text(), where));
      return response;
    },
    setRate(next, nextFrames = next) {
      rate = next;
      frameRate = nextFrames;
    },
    mutations,
    counts: () => ({ ...counts }),
  };
}

/**
 * A fetch that passes every request to the platform and, for `method path`, replaces the answer's
 * body with JSON `null` while keeping its status: the platform took the request and answered oddly.
 */
export function oddBodyAt(method: string, path: string): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') !== method || new URL(input).pathname !== path) return response;
    await response.arrayBuffer();
    return new Response('null', { status: response.status, headers: { 'content-type': 'application/json' } });
  };
}
