/**
 * The platform chat stream client (docs/platform.md, "Chat stream"): one agent
 * turn on the platform through POST /api/chat with the owner's session, streamed as typed
 * frames. The robot's own tools run here, on `beforeToolCallEvent`, and their outcome goes back
 * through POST /api/chat/tool-result (images and long text as /api/media URLs). A gap in `seq`,
 * 45 s without a frame or a `: ping`, an `error` frame or a body that ends without `[DONE]` ends
 * the turn with an error that says which. The stream never throws: it ends with one `done` or
 * `error`, like a model provider.
 */
import type {
  PlatformChat,
  PlatformChatEvent,
  PlatformChatInput,
  PlatformToolCall,
} from '../server/contract/platform.ts';
import { readJsonUpTo } from './body-read.ts';
import { createFrameReader } from './chat-frames.ts';
import { chatHeaders, chatMessages, toolPayload } from './chat-request.ts';
import { NOT_ENROLLED } from './device-api.ts';
import type { DeviceIdentity } from './identity.ts';
import { CHAT, PATHS, READ } from './limits.ts';
import type { Upload } from './media-offload.ts';
import { httpFailure, thrownFailure, tookUnreadably, type PlatformHttp } from './platform-http.ts';
import { FrameTooLong, sseData } from './sse-frames.ts';
import type { FetchLike, Scheduler } from './types.ts';

/** Dependencies of the chat stream. */
export interface ChatStreamDeps {
  identity: () => DeviceIdentity | null;
  /** The owner's session or command-line token: /api/chat/tool-result is a session route. */
  ownerToken: () => string | null;
  /** For tool-result, bound to the platform origin. */
  http: PlatformHttp;
  upload: Upload;
  scheduler: Scheduler;
  fetch?: FetchLike;
  watchdogMs?: number;
}

/** The sentence the robot's agent log shows when no owner session is stored. */
export const NO_OWNER_SESSION =
  "the platform chat needs the owner's session token (paste one on the platform card) to run the robot's tools";

/** One reason to stop, whichever comes first: the caller, the watchdog, a seq gap, a lost tool result. */
function createStopper(deps: ChatStreamDeps, caller: AbortSignal) {
  const controller = new AbortController();
  const watchdogMs = deps.watchdogMs ?? CHAT.watchdogMs;
  let why: string | null = null;
  const stop = (reason: string) => {
    if (why !== null) return;
    why = reason;
    controller.abort();
  };
  const onCaller = () => stop(caller.reason instanceof Error ? caller.reason.message : 'the turn was cancelled');
  if (caller.aborted) onCaller();
  else caller.addEventListener('abort', onCaller, { once: true });
  const silence = () => stop(`the platform sent no frame and no keep-alive for ${watchdogMs / 1000} s`);
  let cancelWatchdog = deps.scheduler.after(watchdogMs, silence);
  return {
    signal: controller.signal,
    stop,
    why: () => why,
    activity() {
      cancelWatchdog();
      cancelWatchdog = deps.scheduler.after(watchdogMs, silence);
    },
    /** The stream has ended ([DONE]): the platform is silent by right while the robot's tools finish. */
    streamEnded() {
      cancelWatchdog();
    },
    dispose() {
      cancelWatchdog();
      caller.removeEventListener('abort', onCaller);
      controller.abort();
    },
  };
}
type Stopper = ReturnType<typeof createStopper>;

/** Bytes of the body; every chunk, keep-alives included, feeds the watchdog. */
async function* chunks(body: ReadableStream<Uint8Array>, stopper: Stopper): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      stopper.activity();
      yield value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** Runs one client-side tool and delivers its outcome; a lost outcome stops the turn. */
async function runClientTool(
  deps: ChatStreamDeps,
  input: PlatformChatInput,
  token: string,
  call: PlatformToolCall,
  stopper: Stopper,
): Promise<void> {
  // A call still queued behind another when the turn ended (an error frame, a seq gap, silence, a
  // cancel) is not run: the turn has answered, and the robot must not move for it afterwards.
  if (stopper.signal.aborted) return;
  const outcome = await input
    .runTool(call)
    .catch((error: unknown) => ({ isError: true, text: error instanceof Error ? error.message : String(error) }));
  const payload = await toolPayload(deps.upload, outcome);
  const sent = await deps.http.send({
    method: 'POST',
    path: PATHS.chatToolResult,
    bearer: token,
    body: { toolUseId: call.toolUseId, payload },
  });
  if (!sent.ok && !tookUnreadably(sent.failure))
    stopper.stop(`the result of ${call.name} could not be delivered: ${sent.failure.message}`);
}

/** A frame's data as a JSON object, or null for anything else (text, `null`, a number, a list). */
function frameOf(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

async function* runChat(deps: ChatStreamDeps, input: PlatformChatInput): AsyncGenerator<PlatformChatEvent> {
  const identity = deps.identity();
  if (!identity) return yield { type: 'error', error: NOT_ENROLLED.message };
  const token = deps.ownerToken();
  if (!token) return yield { type: 'error', error: NO_OWNER_SESSION };
  const stopper = createStopper(deps, input.signal);
  const pending: Array<Promise<void>> = [];
  let toolChain: Promise<void> = Promise.resolve();
  const frames = createFrameReader(new Set(input.tools.map((t) => t.name)));
  const fetchFn: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));
  let stopReason = 'end_turn';
  try {
    const response = await fetchFn(`${identity.platformUrl}${PATHS.chat}`, {
      method: 'POST',
      headers: chatHeaders(token, identity.deviceId, input.tools),
      body: JSON.stringify({ messages: chatMessages(input.messages, input.tools) }),
      redirect: 'error',
      signal: stopper.signal,
    });
    if (!response.ok) {
      const body = await readJsonUpTo(response, READ.answerBytes);
      return yield { type: 'error', error: httpFailure(response.status, body).message };
    }
    if (!response.body) return yield { type: 'error', error: 'the platform answered the chat without a body' };
    for await (const data of sseData(chunks(response.body, stopper))) {
      if (data === '[DONE]') {
        stopper.streamEnded();
        await Promise.all(pending);
        const why = stopper.why();
        return yield why ? { type: 'error', error: why } : { type: 'done', stopReason };
      }
      const frame = frameOf(data);
      if (frame === null) {
        stopper.stop('the platform sent a chat frame that is not a JSON object');
        break;
      }
      const gap = frames.check(frame);
      if (gap) {
        stopper.stop(gap);
        break;
      }
      for (const action of frames.read(frame)) {
        if (action.kind === 'event') yield action.event;
        else if (action.kind === 'run_tool') {
          // One after another, as the turn loop runs a model's calls: run at once, two moves
          // would race for the head and the second cancel the first.
          const { call } = action;
          toolChain = toolChain.then(() => runClientTool(deps, input, token, call, stopper));
          pending.push(toolChain);
        } else if (action.kind === 'stop_reason') stopReason = action.stopReason;
        else if (action.kind === 'failed')
          return yield { type: 'error', error: `the platform answered: ${action.error}` };
      }
      if (stopper.why()) break;
    }
    // [DONE] ends every exit path; a body without it was cut off (docs/platform.md, "Chat stream").
    yield { type: 'error', error: stopper.why() ?? 'the chat stream was cut off before [DONE]' };
  } catch (error) {
    const failure = error instanceof FrameTooLong ? error.message : undefined;
    yield {
      type: 'error',
      error: stopper.why() ?? failure ?? thrownFailure(error, deps.watchdogMs ?? CHAT.watchdogMs).message,
    };
  } finally {
    stopper.dispose();
  }
}

/** Creates the chat stream client. */
export function createChatStream(deps: ChatStreamDeps): PlatformChat {
  return { chat: (input) => runChat(deps, input) };
}
