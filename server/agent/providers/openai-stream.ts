/**
 * Decoding an OpenAI chat-completions stream (`stream: true`): `data: <chunk>` frames ending
 * with `data: [DONE]`. Text arrives in `choices[0].delta.content`; reasoning models served by
 * vLLM, llama.cpp, LM Studio or DeepSeek put their thinking in `delta.reasoning_content` (Ollama
 * and OpenRouter: `delta.reasoning`). A tool call arrives in pieces keyed by `index`: the first
 * piece carries `id` and `function.name`, later ones append to `function.arguments` (a JSON
 * string); some servers (Ollama) send a whole call in one piece. Calls are complete once
 * `finish_reason` or `[DONE]` arrives. An error inside the stream is a frame `{error: {...}}`.
 */
import {
  appendBounded,
  argsTooLong,
  tooManyCalls,
  TOOL_ARGS_LIMIT,
  TOOL_CALL_LIMIT,
  TOOL_NAME_LIMIT,
} from './answer-limits.ts';
import { errorMessageOf } from './http-stream.ts';
import type { ProviderEvent } from './types.ts';
import { indexAt, isObject, listAt, objectAt, textAt, type Json } from './wire-read.ts';

interface PendingCall {
  id: string;
  name: string;
  args: string;
  /** The arguments ran past TOOL_ARGS_LIMIT: the call is refused as invalid. */
  overflow: boolean;
}

export class OpenAiStreamDecoder {
  private started = false;
  private finishReason: string | undefined;
  private finished = false;
  private readonly calls = new Map<number, PendingCall>();

  /** One `data:` payload in, the events it means out. */
  feed(data: string): ProviderEvent[] {
    if (this.finished) return [];
    if (data.trim() === '[DONE]') return this.finish();
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      return this.fail(`the model server sent a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    if (!isObject(chunk))
      return this.fail(`the model server sent a frame that is not a JSON object: ${data.slice(0, 80)}`);
    // `error: null` is how some proxies say "no error" in an ordinary chunk.
    if (chunk.error !== undefined && chunk.error !== null)
      return this.fail(errorMessageOf(JSON.stringify({ error: chunk.error })));
    const out: ProviderEvent[] = [];
    if (!this.started) {
      this.started = true;
      const model = textAt(chunk.model);
      out.push(model ? { type: 'start', model } : { type: 'start' });
    }
    const choice = objectAt(listAt(chunk.choices)[0]);
    if (!this.absorb(objectAt(choice.delta), out)) return [...out, ...this.fail(tooManyCalls)];
    const finishReason = textAt(choice.finish_reason);
    if (finishReason) this.finishReason = finishReason;
    return out;
  }

  /** The body ended. Without `[DONE]` or a finish reason the answer was cut off. */
  end(): ProviderEvent[] {
    if (this.finished) return [];
    if (this.finishReason !== undefined) return this.finish();
    return this.fail('the model stream ended before the answer was complete');
  }

  /** False when the delta opens more tool calls than one answer may have. */
  private absorb(delta: Json, out: ProviderEvent[]): boolean {
    const reasoning = textAt(delta.reasoning_content) ?? textAt(delta.reasoning);
    if (reasoning) out.push({ type: 'reasoning', text: reasoning });
    const content = textAt(delta.content);
    if (content) out.push({ type: 'text', text: content });
    for (const item of listAt(delta.tool_calls)) {
      const piece = objectAt(item);
      const fn = objectAt(piece.function);
      const index = indexAt(piece.index) ?? this.calls.size;
      if (!this.calls.has(index) && this.calls.size >= TOOL_CALL_LIMIT) return false;
      const call = this.calls.get(index) ?? { id: '', name: '', args: '', overflow: false };
      const id = textAt(piece.id);
      if (id) call.id = id.slice(0, TOOL_NAME_LIMIT);
      call.name = appendBounded(call.name, textAt(fn.name) ?? '', TOOL_NAME_LIMIT).text;
      const args = appendBounded(call.args, textAt(fn.arguments) ?? '', TOOL_ARGS_LIMIT);
      call.args = args.text;
      call.overflow ||= args.over;
      this.calls.set(index, call);
    }
    return true;
  }

  private finish(): ProviderEvent[] {
    this.finished = true;
    const out: ProviderEvent[] = [];
    if (!this.started) out.push({ type: 'start' });
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b);
    for (const [index, call] of ordered) out.push(toolCallEvent(call, index));
    out.push({ type: 'done', stopReason: this.finishReason ?? 'stop' });
    return out;
  }

  private fail(error: string): ProviderEvent[] {
    this.finished = true;
    return [{ type: 'error', error }];
  }
}

function toolCallEvent(call: PendingCall, index: number): ProviderEvent {
  const id = call.id || `call_${index}`;
  if (call.overflow) return { type: 'tool_call', call: { id, name: call.name, input: {} }, invalid: argsTooLong };
  const text = call.args.trim();
  if (text === '') return { type: 'tool_call', call: { id, name: call.name, input: {} } };
  try {
    return { type: 'tool_call', call: { id, name: call.name, input: JSON.parse(text) as unknown } };
  } catch {
    return {
      type: 'tool_call',
      call: { id, name: call.name, input: {} },
      invalid: `the arguments are not valid JSON: ${text.slice(0, 120)}`,
    };
  }
}
