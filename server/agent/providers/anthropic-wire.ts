/**
 * Our neutral messages in the Anthropic Messages shape: the system prompt is a top-level field,
 * an assistant turn is a list of `text` and `tool_use` blocks, and tool results go back in a
 * USER message as `tool_result` blocks (keyed by `tool_use_id`) whose content may hold images,
 * which is how the camera snapshot reaches the model.
 */
import type { ChatMessage, ImagePart, ToolSpec } from './types.ts';

type TextBlock = { type: 'text'; text: string };
type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };
type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
type ToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<TextBlock | ImageBlock>;
  is_error?: boolean;
};

export interface AnthropicWireMessage {
  role: 'user' | 'assistant';
  content: string | Array<TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock>;
}

const imageBlock = (image: ImagePart): ImageBlock => ({
  type: 'image',
  source: { type: 'base64', media_type: image.mediaType, data: image.base64 },
});

function toWire(message: ChatMessage): AnthropicWireMessage {
  if (message.role === 'user') {
    if (!message.images || message.images.length === 0) return { role: 'user', content: message.content };
    return { role: 'user', content: [{ type: 'text', text: message.content }, ...message.images.map(imageBlock)] };
  }
  if (message.role === 'assistant') {
    const blocks: Array<TextBlock | ToolUseBlock> = [];
    if (message.text !== '') blocks.push({ type: 'text', text: message.text });
    for (const c of message.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? {} });
    // The API refuses an empty content list; an empty answer is still an answer.
    return { role: 'assistant', content: blocks.length > 0 ? blocks : [{ type: 'text', text: '(no answer)' }] };
  }
  return {
    role: 'user',
    content: message.results.map((r) => {
      const block: ToolResultBlock = {
        type: 'tool_result',
        tool_use_id: r.id,
        content: [{ type: 'text', text: r.content }, ...(r.images ?? []).map(imageBlock)],
      };
      if (r.isError) block.is_error = true;
      return block;
    }),
  };
}

export function anthropicMessages(messages: readonly ChatMessage[]): AnthropicWireMessage[] {
  return messages.map(toWire);
}

export function anthropicTools(tools: readonly ToolSpec[]) {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
}
