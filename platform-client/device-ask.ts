/**
 * The device ask: `POST /api/devices/ask {deviceId, token, text or audioUrl, svc?, stream: "1"}`, one owner-scoped
 * agent turn on the platform (docs/platform.md, "Devices"). The answer is SSE:
 * `: thinking` comments every 10 s, `data: {"t": "<a few words>"}` frames, an optional
 * `data: {"card": {...}}`, errors as `data: {"error": "..."}` inside the stream, then
 * `data: [DONE]`. Statuses 400, 401, 402, 404 and 422 pass through; anything else is 424.
 * The console's 'platform' model provider consumes this as its `PlatformAsk`.
 */
import { readJsonUpTo } from './body-read.ts';
import { NOT_ENROLLED } from './device-api.ts';
import type { DeviceIdentity } from './identity.ts';
import { ASK, PATHS, READ } from './limits.ts';
import { httpFailure, thrownFailure, type PlatformAnswer } from './platform-http.ts';
import { FrameTooLong, sseData } from './sse-frames.ts';
import type { FetchLike, Outcome, PlatformFailure, Scheduler } from './types.ts';

/** One streamed piece of the answer: text, or the platform's in-stream error. */
export type AskEvent = { type: 'text'; text: string } | { type: 'error'; error: string };

/** What the caller asks: text or a recording to transcribe; aborting the signal ends the request. */
export interface AskInput {
  /** At most 4000 characters (docs/platform.md, "Devices"). */
  text?: string;
  /** An https URL of a recording the platform transcribes (for example one stored through /api/media). */
  audioUrl?: string;
  /**
   * Which of the owner's agents answers. Sent as `svc`: the contract names this field only as the
   * "tiny-equivalent agent", and its naming rule puts svc where the product word stood.
   */
  agent?: string;
  signal: AbortSignal;
}

/** The longest audio URL the platform keeps (docs/platform.md, "Devices", transcripts). */
const AUDIO_URL_CHARS = 300;
/** An agent name is an agent slug; bounded like the device name. */
const AGENT_CHARS = 64;

/** Thrown by ask() when there is no answer at all: not enrolled, refused, unreachable, cut off. */
export class AskError extends Error {
  readonly failure: PlatformFailure;
  constructor(failure: PlatformFailure) {
    super(failure.message);
    this.name = 'AskError';
    this.failure = failure;
  }
}

/** Dependencies of the ask; outcomes feed the strike policy like every device request. */
export interface DeviceAskDeps {
  identity: () => DeviceIdentity | null;
  scheduler: Scheduler;
  fetch?: FetchLike;
  onOutcome: (path: string, outcome: Outcome<PlatformAnswer>) => void;
  overallMs?: number;
  idleMs?: number;
}

type StopReason = 'caller' | 'overall' | 'idle';

/** One abort for the request: the caller's signal, the overall bound, or silence on the wire. */
function createGuard(deps: Required<Pick<DeviceAskDeps, 'scheduler' | 'overallMs' | 'idleMs'>>, caller: AbortSignal) {
  const controller = new AbortController();
  let why: StopReason | null = null;
  const stop = (reason: StopReason) => {
    if (why !== null) return;
    why = reason;
    controller.abort();
  };
  const onCaller = () => stop('caller');
  if (caller.aborted) stop('caller');
  else caller.addEventListener('abort', onCaller, { once: true });
  const cancelOverall = deps.scheduler.after(deps.overallMs, () => stop('overall'));
  let cancelIdle = deps.scheduler.after(deps.idleMs, () => stop('idle'));
  return {
    signal: controller.signal,
    why: () => why,
    activity() {
      cancelIdle();
      cancelIdle = deps.scheduler.after(deps.idleMs, () => stop('idle'));
    },
    dispose() {
      cancelOverall();
      cancelIdle();
      caller.removeEventListener('abort', onCaller);
    },
  };
}
type Guard = ReturnType<typeof createGuard>;

const refuse = (kind: PlatformFailure['kind'], message: string) => new AskError({ kind, message, retryable: false });

function checkInput(input: AskInput): AskError | null {
  const { text, audioUrl, agent } = input;
  if (text !== undefined && audioUrl !== undefined)
    return refuse('bad_request', 'ask with text or with audioUrl, not both');
  if (audioUrl !== undefined) {
    if (typeof audioUrl !== 'string' || !audioUrl.startsWith('https://') || audioUrl.length > AUDIO_URL_CHARS)
      return refuse('bad_request', `audioUrl must be https and at most ${AUDIO_URL_CHARS} characters`);
  } else {
    if (typeof text !== 'string' || text.trim() === '') return refuse('bad_request', 'the ask text is empty');
    if (text.length > ASK.textChars) return refuse('too_large', `the ask text is over ${ASK.textChars} characters`);
  }
  if (agent !== undefined && (typeof agent !== 'string' || agent.trim() === '' || agent.length > AGENT_CHARS))
    return refuse('bad_request', `the agent name must be 1-${AGENT_CHARS} characters`);
  return null;
}

/** The request body: text or audioUrl, the agent when chosen, streamed. */
function askBody(input: AskInput, identity: DeviceIdentity): Record<string, unknown> {
  return {
    ...(input.audioUrl !== undefined ? { audioUrl: input.audioUrl } : { text: input.text }),
    ...(input.agent !== undefined ? { svc: input.agent } : {}),
    stream: '1',
    deviceId: identity.deviceId,
    token: identity.token,
  };
}

/** Why the request ended early, as the error the caller sees. */
function stoppedError(guard: Guard, error: unknown, overallMs: number): Error {
  if (error instanceof AskError) return error;
  const seconds = (ms: number) => Math.round(ms / 1000);
  switch (guard.why()) {
    case 'caller':
      return new Error('the ask was cancelled');
    case 'overall':
      return new AskError({
        kind: 'timeout',
        message: `no complete answer within ${seconds(overallMs)} s`,
        retryable: true,
      });
    case 'idle':
      return new AskError({
        kind: 'timeout',
        message: 'the answer stalled (no bytes, not even a keep-alive)',
        retryable: true,
      });
    default:
      if (error instanceof FrameTooLong)
        return new AskError({ kind: 'bad_response', message: error.message, retryable: true });
      return new AskError(thrownFailure(error, overallMs));
  }
}

const readJson = (response: Response): Promise<unknown> => readJsonUpTo(response, READ.answerBytes);

/** Bytes of the body, marking activity for the idle bound; the reader is released on exit. */
async function* chunks(body: ReadableStream<Uint8Array>, guard: Guard): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      guard.activity();
      yield value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** A data payload as an event; cards (screen UI, at most 4 KB) and unknown frames carry no text. */
function eventOf(data: string): AskEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const frame = (typeof value === 'object' && value !== null ? value : {}) as { t?: unknown; error?: unknown };
  if (typeof frame.error === 'string') return { type: 'error', error: frame.error };
  // Never drop a false-looking piece such as "0" (docs/platform.md, "Chat stream").
  if (typeof frame.t === 'string') return { type: 'text', text: frame.t };
  return null;
}

async function* answerOf(response: Response, guard: Guard): AsyncGenerator<AskEvent> {
  // Tolerated: a proxy that ignores `stream` answers {ok, text} as JSON.
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    const body = (await readJson(response)) as { text?: unknown } | undefined;
    if (typeof body?.text === 'string') yield { type: 'text', text: body.text };
    return;
  }
  if (!response.body) throw refuse('bad_response', 'the platform answered without a body');
  for await (const data of sseData(chunks(response.body, guard))) {
    if (data === '[DONE]') return;
    const event = eventOf(data);
    if (event) yield event;
  }
  // [DONE] ends every exit path; a body without it was cut off (docs/platform.md, "Chat stream").
  throw new AskError({ kind: 'bad_response', message: 'the answer was cut off before [DONE]', retryable: true });
}

async function* runAsk(deps: Required<Omit<DeviceAskDeps, 'fetch'>> & Pick<DeviceAskDeps, 'fetch'>, input: AskInput) {
  const identity = deps.identity();
  if (!identity) throw new AskError(NOT_ENROLLED);
  const invalid = checkInput(input);
  if (invalid) throw invalid;
  const guard = createGuard(deps, input.signal);
  const fetchFn: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));
  try {
    const response = await fetchFn(`${identity.platformUrl}${PATHS.ask}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(askBody(input, identity)),
      redirect: 'error',
      signal: guard.signal,
    });
    if (!response.ok) {
      const failure = httpFailure(response.status, await readJson(response));
      deps.onOutcome(PATHS.ask, { ok: false, failure });
      throw new AskError(failure);
    }
    deps.onOutcome(PATHS.ask, { ok: true, value: { status: response.status, body: {} } });
    yield* answerOf(response, guard);
  } catch (error) {
    const stopped = stoppedError(guard, error, deps.overallMs);
    if (stopped instanceof AskError && !(error instanceof AskError) && guard.why() === null)
      deps.onOutcome(PATHS.ask, { ok: false, failure: stopped.failure });
    throw stopped;
  } finally {
    guard.dispose();
  }
}

/** Creates the device ask: `ask({text, signal})` streams the answer or throws an AskError. */
export function createDeviceAsk(deps: DeviceAskDeps): (input: AskInput) => AsyncIterable<AskEvent> {
  const full = { ...deps, overallMs: deps.overallMs ?? ASK.overallMs, idleMs: deps.idleMs ?? ASK.idleMs };
  return (input) => runAsk(full, input);
}
