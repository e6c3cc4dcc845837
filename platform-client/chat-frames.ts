/**
 * The typed frames of the platform chat stream (docs/platform.md, "Chat stream") turned into what the robot acts on. Every frame carries a monotonic `seq`; a gap means
 * frames were lost and the turn cannot be trusted. Text arrives as `textDelta` and is never
 * dropped, even when empty or "0". Tool frames are keyed on `toolUseId`, with the name recorded
 * at `modelContentBlockStartEvent` filling in a frame that omits it.
 */
import type { PlatformChatEvent, PlatformToolCall } from '../server/contract/platform.ts';
import { platformWords } from './platform-http.ts';

/** What one frame asks of the stream reader. */
export type FrameAction =
  | { kind: 'event'; event: PlatformChatEvent }
  /** A client-side tool to run now (beforeToolCallEvent naming one of the robot's tools). */
  | { kind: 'run_tool'; call: PlatformToolCall }
  | { kind: 'stop_reason'; stopReason: string }
  /** An `error` frame: the platform gave up (preflight refusal or mid-stream failure). */
  | { kind: 'failed'; error: string }
  | { kind: 'none' };

/** Reads frames in order; holds the seq and the tool names seen so far. */
export interface FrameReader {
  /** Null when the frame is fine; otherwise why the stream cannot be trusted (a seq gap, bad JSON). */
  check(frame: Record<string, unknown>): string | null;
  read(frame: Record<string, unknown>): FrameAction[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A reasoning delta is a string, or `{text}` as the model stream names it. */
function reasoningText(value: unknown): string | undefined {
  return str(value) ?? str(obj(value).text);
}

/** Why a tool result is an error, or undefined when it is not one: its text blocks, else its content as JSON. */
function errorOf(raw: Record<string, unknown>): string | undefined {
  const error = str(raw.error);
  if (error !== undefined || raw.status !== 'error') return error;
  const texts = Array.isArray(raw.content) ? raw.content.flatMap((block) => str(obj(block).text) ?? []) : [];
  return texts.length > 0 ? texts.join(' ') : (JSON.stringify(raw.content ?? 'failed') ?? 'failed');
}

/** The platform's error for a tool it should have left to the robot. */
function platformRefusedNotice(tool: string, error: string): FrameAction {
  const text = `the platform answered the robot's ${tool} tool itself, as failed (${platformWords(error)}); its model is not given what the robot did`;
  return { kind: 'event', event: { type: 'notice', text } };
}

/** Creates a reader; `clientTools` are the names the robot runs itself. */
export function createFrameReader(clientTools: ReadonlySet<string>): FrameReader {
  let lastSeq: number | null = null;
  let sawText = false;
  const names = new Map<string, string>();
  const ended = new Set<string>();
  const clientIds = new Set<string>();

  const callOf = (raw: Record<string, unknown>): PlatformToolCall => {
    const toolUseId = str(raw.toolUseId) ?? '';
    return { name: str(raw.name) ?? names.get(toolUseId) ?? 'tool', toolUseId, input: raw.input };
  };

  const toolEnd = (raw: Record<string, unknown>): FrameAction[] => {
    const call = callOf(raw);
    // A result is reported once.
    if (ended.has(call.toolUseId)) return [];
    ended.add(call.toolUseId);
    const error = errorOf(raw);
    // The robot's own tools are reported by whoever ran them. But a platform that answers one of
    // them itself with an error (the running platform answers every device tool "not found in
    // registry", platform-client/README.md) has told its model the call failed, whatever the robot
    // did: the owner is told so, or the answer that follows reads as a mystery.
    if (clientIds.has(call.toolUseId)) return error === undefined ? [] : [platformRefusedNotice(call.name, error)];
    const outcome = error !== undefined ? { error } : { result: raw.content ?? null };
    return [{ kind: 'event', event: { type: 'tool_end', call, outcome } }];
  };

  return {
    check(frame) {
      if (typeof frame.seq !== 'number') return null;
      const expected = lastSeq === null ? frame.seq : lastSeq + 1;
      const previous = lastSeq;
      lastSeq = frame.seq;
      if (frame.seq === expected) return null;
      return `the chat stream lost frames (seq ${String(previous)} was followed by ${frame.seq})`;
    },
    read(frame) {
      switch (frame.type) {
        case 'modelMessageStartEvent':
          // The web client puts a paragraph break between assistant messages (docs/platform.md, "Chat stream").
          return sawText ? [{ kind: 'event', event: { type: 'text', text: '\n\n' } }] : [];
        case 'modelContentBlockDeltaEvent': {
          const text = str(frame.textDelta);
          if (text !== undefined) {
            sawText = sawText || text !== '';
            return [{ kind: 'event', event: { type: 'text', text } }];
          }
          const reasoning = reasoningText(frame.reasoningDelta);
          return reasoning !== undefined ? [{ kind: 'event', event: { type: 'reasoning', text: reasoning } }] : [];
        }
        case 'modelContentBlockStartEvent': {
          const start = obj(frame.toolStart);
          const id = str(start.toolUseId);
          const name = str(start.name);
          if (id === undefined || name === undefined) return [];
          names.set(id, name);
          if (clientTools.has(name)) return [];
          return [{ kind: 'event', event: { type: 'tool_start', call: { name, toolUseId: id, input: undefined } } }];
        }
        case 'beforeToolCallEvent': {
          const call = callOf(obj(frame.toolCall));
          if (!clientTools.has(call.name) || call.toolUseId === '') return [];
          // A call asked for again (a replayed frame) is run once: twice would move the robot twice,
          // and its second result is one the platform no longer waits for.
          if (clientIds.has(call.toolUseId)) return [];
          clientIds.add(call.toolUseId);
          return [{ kind: 'run_tool', call }];
        }
        case 'afterToolCallEvent':
          return toolEnd(obj(frame.toolResult));
        case 'toolResultBlock':
          return toolEnd(obj(frame.toolResultBlock));
        case 'modelMessageStopEvent':
        case 'agentResultEvent': {
          const reason = str(frame.stopReason);
          return reason ? [{ kind: 'stop_reason', stopReason: reason }] : [];
        }
        case 'contextCompacted': {
          const dropped = typeof frame.dropped === 'number' ? frame.dropped : null;
          const text = `the platform dropped ${dropped ?? 'some'} older messages to fit the model's context`;
          return [{ kind: 'event', event: { type: 'notice', text } }];
        }
        case 'error':
          return [{ kind: 'failed', error: platformWords(str(frame.error) ?? 'the platform reported an error') }];
        default:
          // Lifecycle markers, metadata, tool stream updates: nothing for the robot to act on.
          return [{ kind: 'none' }];
      }
    },
  };
}
