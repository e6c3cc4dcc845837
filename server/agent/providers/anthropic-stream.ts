/**
 * Decoding an Anthropic Messages stream: named SSE events `message_start`, then per content
 * block `content_block_start` / `content_block_delta`* / `content_block_stop`, then
 * `message_delta` (stop_reason, usage) and `message_stop`; `ping` may come anywhere and an
 * `error` event may arrive mid-stream (e.g. overloaded_error). Deltas are `text_delta`,
 * `thinking_delta` (extended thinking), `signature_delta` (ignored) and `input_json_delta`,
 * whose `partial_json` pieces join into the tool_use block's input, complete at its stop.
 */
import type { ProviderEvent } from './types.ts';

interface Block {
  type: string;
  id?: string;
  name?: string;
  json: string;
}

interface StreamData {
  type?: string;
  index?: number;
  message?: { model?: string };
  content_block?: { type?: string; id?: string; name?: string; text?: string; thinking?: string };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  error?: { type?: string; message?: string };
}

export class AnthropicStreamDecoder {
  private readonly blocks = new Map<number, Block>();
  private stopReason: string | undefined;
  private finished = false;

  /** One SSE event in (its `event:` name, else the data's own `type`), its events out. */
  feed(eventName: string | undefined, data: string): ProviderEvent[] {
    if (this.finished) return [];
    let parsed: StreamData;
    try {
      parsed = JSON.parse(data) as StreamData;
    } catch {
      return this.fail(`the model server sent a frame that is not JSON: ${data.slice(0, 80)}`);
    }
    switch (eventName ?? parsed.type) {
      case 'message_start':
        return [parsed.message?.model ? { type: 'start', model: parsed.message.model } : { type: 'start' }];
      case 'content_block_start':
        return this.blockStart(parsed);
      case 'content_block_delta':
        return this.blockDelta(parsed);
      case 'content_block_stop':
        return this.blockStop(parsed.index ?? 0);
      case 'message_delta':
        if (parsed.delta?.stop_reason) this.stopReason = parsed.delta.stop_reason;
        return [];
      case 'message_stop':
        this.finished = true;
        return [{ type: 'done', stopReason: this.stopReason ?? 'end_turn' }];
      case 'error':
        return this.fail(`${parsed.error?.type ?? 'error'}: ${parsed.error?.message ?? 'the model server failed'}`);
      default:
        // ping, and event types added to the protocol later, carry nothing we use.
        return [];
    }
  }

  /** The body ended; without message_stop the answer was cut off. */
  end(): ProviderEvent[] {
    return this.finished ? [] : this.fail('the model stream ended before the answer was complete');
  }

  private blockStart(data: StreamData): ProviderEvent[] {
    const cb = data.content_block ?? {};
    this.blocks.set(data.index ?? 0, { type: cb.type ?? 'text', id: cb.id, name: cb.name, json: '' });
    if (cb.type === 'text' && cb.text) return [{ type: 'text', text: cb.text }];
    if (cb.type === 'thinking' && cb.thinking) return [{ type: 'reasoning', text: cb.thinking }];
    return [];
  }

  private blockDelta(data: StreamData): ProviderEvent[] {
    const d = data.delta ?? {};
    if (d.type === 'text_delta' && d.text) return [{ type: 'text', text: d.text }];
    if (d.type === 'thinking_delta' && d.thinking) return [{ type: 'reasoning', text: d.thinking }];
    if (d.type === 'input_json_delta') {
      const block = this.blocks.get(data.index ?? 0);
      if (block) block.json += d.partial_json ?? '';
    }
    return [];
  }

  private blockStop(index: number): ProviderEvent[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (!block || block.type !== 'tool_use') return [];
    const id = block.id ?? `toolu_${index}`;
    const name = block.name ?? '';
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
