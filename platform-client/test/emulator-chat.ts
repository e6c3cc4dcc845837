/**
 * The chat stream of the emulator (docs/platform.md, "Chat stream"): POST
 * /api/chat answers SSE frames `data: <json>` each with a monotonic `seq` from 0, a `: ping`
 * every 15000 ms, an `{type: "error", error}` frame on a preflight refusal or a mid-stream
 * failure, and `data: [DONE]` on every exit path. A scripted agent writes the events; when it
 * calls a client-side tool the stream carries `beforeToolCallEvent` and waits for POST
 * /api/chat/tool-result {toolUseId, payload} from the same user. The request rules: messages
 * required and non-empty, the last 31 kept, role user, assistant or system, content a string
 * or an array of blocks. Where the contract is silent (how a client names its tools, the shape
 * of a tool-result payload) the emulator takes whatever it is given and hands it to the script.
 */
import {
  fail,
  ok,
  sessionUser,
  workerDownReply,
  type EmuContext,
  type EmuReply,
  type EmuRequest,
} from './emulator-context.ts';
import { every } from './emulator-sse.ts';

/** A chat message as kept (the last 31). */
export interface EmuChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | unknown[];
}

/** One turn as the scripted agent sees it, with the means to answer. */
export interface EmuChatTurn {
  userId: string | null;
  /** The messages the platform keeps: the last 31 of those sent. */
  messages: EmuChatMessage[];
  /** How many were sent before the 31-message cut. */
  sent: number;
  /** The x-svc-* headers as sent (lower-case names). */
  headers: Record<string, string>;
  /** Writes one event; `seq` is added. */
  emit(event: Record<string, unknown>): void;
  /** Streams text as `modelContentBlockDeltaEvent` textDelta frames, one per piece. */
  say(...pieces: string[]): void;
  /**
   * Calls a client-side tool: toolStart, beforeToolCallEvent, then waits for the device's
   * tool-result and reports it as afterToolCallEvent (image bytes elided). Resolves with the payload.
   * With `answeredHere`, acts as the running platform does for a tool not in its own registry:
   * reports that error at once and goes on, taking the device's tool-result later unread.
   */
  callTool(name: string, input: unknown, options?: { answeredHere?: string }): Promise<unknown>;
  /** Skips one `seq` number, as a dropped frame would. */
  dropFrame(): void;
  /** Stops the `: ping` keep-alive (a stalled platform). */
  stopPings(): void;
  /** Resolves when the client goes away. */
  readonly gone: Promise<void>;
}

/** The scripted agent; throwing ends the stream with an error frame (then [DONE]). */
export type EmuChatScript = (turn: EmuChatTurn) => Promise<void> | void;

/** Emulator state of the chat routes. */
export interface EmuChat {
  script: EmuChatScript;
  /** A refusal before the stream (no model key): one error frame, then [DONE]. */
  preflightError: string | null;
  /** Client-side tool calls waiting for their result, by toolUseId. */
  waiting: Map<string, { userId: string | null; resolve: (payload: unknown) => void }>;
  /** Every tool-result received, for assertions. */
  results: Array<{ toolUseId: string; payload: unknown }>;
  /** Every turn the script was given, for assertions. */
  turns: EmuChatTurn[];
  nextToolUse: number;
}

/** Keep-alive period (docs/platform.md, "Limits": SSE keep-alive 15000 ms). */
export const PING_MS = 15_000;
/** Chat history kept (docs/platform.md, "Limits"). */
export const HISTORY_KEPT = 31;

/** The default agent echoes the last user message. */
export const echoChat: EmuChatScript = (turn) => {
  const last = [...turn.messages].reverse().find((m) => m.role === 'user');
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  turn.say('You said: ', text);
};

export function createEmuChat(): EmuChat {
  return { script: echoChat, preflightError: null, waiting: new Map(), results: [], turns: [], nextToolUse: 0 };
}

function checkMessages(raw: unknown): EmuChatMessage[] | string {
  if (!Array.isArray(raw) || raw.length === 0) return 'messages required';
  for (const m of raw as Array<Record<string, unknown>>) {
    if (typeof m !== 'object' || m === null) return 'each message must be an object';
    if (!['user', 'assistant', 'system'].includes(m.role as string)) return 'role must be user, assistant or system';
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) return 'content must be a string or blocks';
  }
  return raw as EmuChatMessage[];
}

/** Base64 image bytes in a result are replaced by {image: {elided: true}} (docs/platform.md, "Chat stream"). */
function elideImages(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(elideImages);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if ('image' in record && typeof record.image === 'object') return { image: { elided: true } };
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, elideImages(v)]));
}

function headersOf(req: EmuRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (name.startsWith('x-svc-') && typeof value === 'string') out[name] = value;
  return out;
}

/** POST /api/chat: session, or public on the free tier. */
export function chatRoute(chat: EmuChat) {
  return (req: EmuRequest, ctx: EmuContext): EmuReply => {
    const down = workerDownReply(ctx);
    if (down) return down;
    const checked = checkMessages(req.body.messages);
    if (typeof checked === 'string') return fail(400, checked);
    const userId = sessionUser(req, ctx);
    return {
      status: 200,
      live: async (out) => {
        let seq = 0;
        const emit = (event: Record<string, unknown>) => out.data({ ...event, seq: seq++ });
        if (chat.preflightError !== null) {
          emit({ type: 'error', error: chat.preflightError });
          out.data('[DONE]');
          return;
        }
        let stopPings = every(ctx.timers, PING_MS, () => out.comment('ping'));
        const turn: EmuChatTurn = {
          userId,
          messages: checked.slice(-HISTORY_KEPT),
          sent: checked.length,
          headers: headersOf(req),
          emit,
          say: (...pieces) => {
            for (const textDelta of pieces) emit({ type: 'modelContentBlockDeltaEvent', textDelta });
          },
          callTool: (name, input, options) => {
            const toolUseId = `tooluse_${(chat.nextToolUse += 1)}`;
            emit({ type: 'modelContentBlockStartEvent', toolStart: { name, toolUseId } });
            emit({ type: 'modelContentBlockStopEvent' });
            emit({ type: 'beforeToolCallEvent', toolCall: { name, toolUseId, input } });
            if (options?.answeredHere !== undefined) {
              chat.waiting.set(toolUseId, { userId, resolve: () => undefined });
              const content = [{ text: options.answeredHere }];
              emit({ type: 'afterToolCallEvent', toolResult: { name, toolUseId, status: 'error', content } });
              return Promise.resolve(content);
            }
            return new Promise((resolve) => {
              chat.waiting.set(toolUseId, {
                userId,
                resolve: (payload) => {
                  emit({
                    type: 'afterToolCallEvent',
                    toolResult: { name, toolUseId, status: 'success', content: elideImages(payload) },
                  });
                  resolve(payload);
                },
              });
            });
          },
          dropFrame: () => void (seq += 1),
          stopPings: () => {
            stopPings();
            stopPings = () => undefined;
          },
          gone: out.gone,
        };
        chat.turns.push(turn);
        emit({ type: 'modelMessageStartEvent' });
        try {
          await Promise.race([chat.script(turn), out.gone]);
          if (!out.closed) {
            emit({ type: 'modelMessageStopEvent', stopReason: 'end_turn' });
            emit({ type: 'agentResultEvent', stopReason: 'end_turn' });
          }
        } catch (error) {
          emit({ type: 'error', error: error instanceof Error ? error.message : String(error) });
        } finally {
          stopPings();
          out.data('[DONE]');
        }
      },
    };
  };
}

/** POST /api/chat/tool-result: session; the outcome of a client-side tool. */
export function toolResultRoute(chat: EmuChat) {
  return (req: EmuRequest, ctx: EmuContext): EmuReply => {
    const userId = sessionUser(req, ctx);
    if (!userId) return fail(401, 'login required');
    const { toolUseId, payload } = req.body;
    if (typeof toolUseId !== 'string' || toolUseId === '' || payload === undefined)
      return fail(400, 'toolUseId and payload required');
    const waiting = chat.waiting.get(toolUseId);
    // The contract does not say what an unknown id gets; a 404 is one reading the client must survive.
    if (!waiting || (waiting.userId !== null && waiting.userId !== userId)) return fail(404, 'unknown toolUseId');
    chat.waiting.delete(toolUseId);
    chat.results.push({ toolUseId, payload });
    waiting.resolve(payload);
    return ok();
  };
}
