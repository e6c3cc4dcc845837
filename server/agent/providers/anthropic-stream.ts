/**
 * Decoding an Anthropic Messages stream: named SSE events `message_start`, then per content
 * block `content_block_start` / `content_block_delta`* / `content_block_stop`, then
 * `message_delta` (stop_reason, usage) and `message_stop`; `ping` may come anywhere and an
 * `error` event may arrive mid-stream (e.g. overloaded_error). Deltas are `text_delta`,
 * `thinking_delta` (extended thinking), `signature_delta` (ignored) and `input_json_delta`,
 * whose `partial_json` pieces join into the tool_use block's input, complete at its stop.
 */
import {
  appendBounded,
  argsTooLong,
  BLOCK_LIMIT,
  tooManyCalls,
  TOOL_ARGS_LIMIT,
  TOOL_CALL_LIMIT,
  TOOL_NAME_LIMIT,
} from './answer-limits.ts';
import type { ProviderEvent } from './types.ts';
import { indexAt, isObject, objectAt, textAt, type Json } from './wire-read.ts';

interface Block {
  type: string;
  id?: string;
  name?: string;
  json: string;
  /** The input ran past TOOL_ARGS_LIMIT: the call is refused as invalid. */
  overflow: boolean;
}

export class AnthropicStreamDecoder {
  private readonly blocks = new Map<number, Block>();
  private blocksOpened = 0;
  private toolUses = 0;
  private stopReason: string | undefined;
  private finished = false;

  /** One SSE event in (its `event:` name, else the data's own `type`), its events out. */
  feed(eventName: string | undefined, data: string): ProviderEvent[] {
    if (this.finished) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return this.fail(`the model server sent a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    if (!isObject(parsed))
      return this.fail(`the model server sent a frame that is not a JSON object: ${data.slice(0, 80)}`);
    const index = indexAt(parsed.index) ?? 0;
    switch (eventName ?? textAt(parsed.type)) {
      case 'message_start': {
        const model = textAt(objectAt(parsed.message).model);
        return [model ? { type: 'start', model } : { type: 'start' }];
      }
      case 'content_block_start':
        return this.blockStart(index, objectAt(parsed.content_block));
      case 'content_block_delta':
        return this.blockDelta(index, objectAt(parsed.delta));
      case 'content_block_stop':
        return this.blockStop(index);
      case 'message_delta': {
        const stopReason = textAt(objectAt(parsed.delta).stop_reason);
        if (stopReason) this.stopReason = stopReason;
        return [];
      }
      case 'message_stop':
        this.finished = true;
        return [{ type: 'done', stopReason: this.stopReason ?? 'end_turn' }];
      case 'error': {
        const error = objectAt(parsed.error);
        const message = (textAt(error.message) ?? 'the model server failed').slice(0, 300);
        return this.fail(`${(textAt(error.type) ?? 'error').slice(0, 60)}: ${message}`);
      }
      default:
        // ping, and event types added to the protocol later, carry nothing we use.
        return [];
    }
  }

  /** The body ended; without message_stop the answer was cut off. */
  end(): ProviderEvent[] {
    return this.finished ? [] : this.fail('the model stream ended before the answer was complete');
  }

  private blockStart(index: number, block: Json): ProviderEvent[] {
    const type = textAt(block.type) ?? 'text';
    this.blocksOpened += 1;
    if (this.blocksOpened > BLOCK_LIMIT)
      return this.fail(`the model opened more than ${BLOCK_LIMIT} content blocks in one answer`);
    if (type === 'tool_use') this.toolUses += 1;
    if (this.toolUses > TOOL_CALL_LIMIT) return this.fail(tooManyCalls);
    const id = textAt(block.id)?.slice(0, TOOL_NAME_LIMIT);
    const name = textAt(block.name)?.slice(0, TOOL_NAME_LIMIT);
    this.blocks.set(index, { type, id, name, json: '', overflow: false });
    const text = textAt(block.text);
    if (type === 'text' && text) return [{ type: 'text', text }];
    const thinking = textAt(block.thinking);
    if (type === 'thinking' && thinking) return [{ type: 'reasoning', text: thinking }];
    return [];
  }

  private blockDelta(index: number, delta: Json): ProviderEvent[] {
    const type = textAt(delta.type);
    const text = textAt(delta.text);
    if (type === 'text_delta' && text) return [{ type: 'text', text }];
    const thinking = textAt(delta.thinking);
    if (type === 'thinking_delta' && thinking) return [{ type: 'reasoning', text: thinking }];
    if (type === 'input_json_delta') {
      const block = this.blocks.get(index);
      if (block) {
        const json = appendBounded(block.json, textAt(delta.partial_json) ?? '', TOOL_ARGS_LIMIT);
        block.json = json.text;
        block.overflow ||= json.over;
      }
    }
    return [];
  }

  private blockStop(index: number): ProviderEvent[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (!block || block.type !== 'tool_use') return [];
    const id = block.id ?? `toolu_${index}`;
    const name = block.name ?? '';
    if (block.overflow) return [{ type: 'tool_call', call: { id, name, input: {} }, invalid: argsTooLong }];
    // A tool without parameters streams no input_json_delta at all (or an empty one).
    if (block.json.trim() === '') return [{ type: 'tool_call', call: { id, name, input: {} } }];
    try {
      return [{ type: 'tool_call', call: { id, name, input: JSON.parse(block.json) as unknown } }];
    } catch {
      const invalid = `the arguments are not valid JSON: ${block.json.slice(0, 120)}`;
      return [{ type: 'tool_call', call: { id, name, input: {} }, invalid }];
    }
  }

  private fail(error: string): ProviderEvent[] {
    this.finished = true;
    return [{ type: 'error', error }];
  }
}
