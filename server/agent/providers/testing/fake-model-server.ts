/**
 * The HTTP side shared by the fake model servers: a node:http server on 127.0.0.1, port 0, that
 * reads the JSON body, lets the protocol check it, asks the script for a reply and writes what
 * the protocol rendered: a JSON error, or SSE frames (optionally spaced out in time), possibly
 * left hanging until the client goes away. Every parsed request is recorded for assertions.
 * A test that looks at a stream mid-way holds it (`hold(afterFrames)`): each stream stops after
 * that many frames until `release()`, so "still streaming" is a state the test owns, not a race.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultScript, type FakeReply, type FakeRequest, type Script } from './fake-script.ts';

export type Parsed = { ok: true; request: FakeRequest } | { ok: false; status: number; json: unknown };

export type Rendered = { status: number; json: unknown } | { frames: string[]; hang: boolean };

export interface FakeProtocol {
  /** The POST path served, e.g. /v1/chat/completions. */
  path: string;
  parse(body: unknown, headers: IncomingMessage['headers']): Parsed;
  render(reply: FakeReply, request: FakeRequest): Rendered;
}

export interface FakeServerOptions {
  script?: Script;
  /** Pause between SSE frames, so a client sees a real stream rather than one chunk. */
  frameDelayMs?: number;
}

export interface FakeModelServer {
  /** The server's origin, http://127.0.0.1:<port>. */
  readonly origin: string;
  /** Every request that passed the protocol's checks, oldest first. */
  readonly requests: FakeRequest[];
  /** Replaces the script for later requests. */
  setScript(script: Script): void;
  /** Responses left hanging and still open. */
  hanging(): number;
  /**
   * Later streams stop after `afterFrames` frames (and streams already past it at once) until
   * release(); with `only`, just the streams of the requests it picks (not, say, a persona's).
   */
  hold(afterFrames: number, only?: (request: FakeRequest) => boolean): void;
  /** Resolves once a stream is stopped at the hold, with the frames it has written. */
  held(): Promise<number>;
  /** Lets every held stream go on, and lifts the hold for later ones. */
  release(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hold of a test on the streams: a gate every stream passes before each frame. */
interface StreamHold {
  afterFrames: number;
  only: (request: FakeRequest) => boolean;
  /** Opens when released. */
  released: Promise<void>;
  release(): void;
  /** Frames written by the first stream stopped at the gate, once one is. */
  stopped: Promise<number>;
  stop(written: number): void;
}

function createHold(afterFrames: number, only: (request: FakeRequest) => boolean): StreamHold {
  let release = () => {};
  let stop: (written: number) => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const stopped = new Promise<number>((resolve) => (stop = resolve));
  return { afterFrames, only, released, release, stopped, stop };
}

interface ServerState {
  protocol: FakeProtocol;
  options: FakeServerOptions;
  script: Script;
  requests: FakeRequest[];
  /** Responses left hanging, ended by the client leaving or by close(). */
  open: Set<ServerResponse>;
  hold: StreamHold | undefined;
}

async function writeFrames(
  state: ServerState,
  res: ServerResponse,
  rendered: { frames: string[]; hang: boolean },
  request: FakeRequest,
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [index, frame] of rendered.frames.entries()) {
    const hold = state.hold;
    if (hold && index >= hold.afterFrames && hold.only(request)) {
      hold.stop(index);
      await hold.released;
    }
    if (res.destroyed) return;
    res.write(frame);
    if (state.options.frameDelayMs) await sleep(state.options.frameDelayMs);
  }
  if (!rendered.hang) {
    res.end();
    return;
  }
  state.open.add(res);
  res.on('close', () => state.open.delete(res));
}

const sendJson = (res: ServerResponse, status: number, json: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));

async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST' || req.url?.split('?')[0] !== state.protocol.path) {
    sendJson(res, 404, { error: 'not found' });
    return;
  }
  const parsed = state.protocol.parse(await readBody(req), req.headers);
  if (!parsed.ok) {
    sendJson(res, parsed.status, parsed.json);
    return;
  }
  state.requests.push(parsed.request);
  const rendered = state.protocol.render(await state.script(parsed.request), parsed.request);
  if ('json' in rendered) sendJson(res, rendered.status, rendered.json);
  else await writeFrames(state, res, rendered, parsed.request);
}

export async function startFakeModelServer(
  protocol: FakeProtocol,
  options: FakeServerOptions,
): Promise<FakeModelServer> {
  const state: ServerState = {
    protocol,
    options,
    script: options.script ?? defaultScript,
    requests: [],
    open: new Set(),
    hold: undefined,
  };

  const server = createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: state.requests,
    setScript: (next) => (state.script = next),
    hanging: () => state.open.size,
    hold(afterFrames, only = () => true) {
      state.hold?.release();
      state.hold = createHold(afterFrames, only);
    },
    held: () => state.hold?.stopped ?? Promise.reject(new Error('held() without hold()')),
    release() {
      state.hold?.release();
      state.hold = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        state.hold?.release();
        for (const res of state.open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
