/**
 * Our neutral messages in the OpenAI chat-completions shape. Tool results are `role: "tool"`
 * messages keyed by `tool_call_id`, whose content is text only: an image a tool produced (the
 * camera snapshot) follows as a user message with an `image_url` data URL part, the form every
 * OpenAI-compatible server with vision (OpenAI, vLLM, llama.cpp, Ollama, LM Studio) accepts.
 */
import type { ChatMessage, ImagePart, ToolSpec } from './types.ts';

type WireContent = string | Array<{ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }>;

export interface OpenAiWireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: WireContent | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

const dataUrl = (image: ImagePart) => `data:${image.mediaType};base64,${image.base64}`;

function userContent(text: string, images: readonly ImagePart[] | undefined): WireContent {
  if (!images || images.length === 0) return text;
  return [
    { type: 'text', text },
    ...images.map((i) => ({ type: 'image_url' as const, image_url: { url: dataUrl(i) } })),
  ];
}

function toWire(message: ChatMessage): OpenAiWireMessage[] {
  if (message.role === 'user') return [{ role: 'user', content: userContent(message.content, message.images) }];
  if (message.role === 'assistant') {
    const out: OpenAiWireMessage = { role: 'assistant', content: message.text === '' ? null : message.text };
    if (message.toolCalls.length > 0) {
      out.tool_calls = message.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) },
      }));
    }
    return [out];
  }
  const results: OpenAiWireMessage[] = message.results.map((r) => ({
    role: 'tool',
    tool_call_id: r.id,
    content: r.content,
  }));
  const images = message.results.flatMap((r) => (r.images ?? []).map((image) => ({ name: r.name, image })));
  if (images.length > 0) {
    const text = `Image${images.length > 1 ? 's' : ''} returned by ${[...new Set(images.map((i) => i.name))].join(', ')}:`;
    results.push({
      role: 'user',
      content: userContent(
        text,
        images.map((i) => i.image),
      ),
    });
  }
  return results;
}

export function openAiMessages(system: string, messages: readonly ChatMessage[]): OpenAiWireMessage[] {
  const head: OpenAiWireMessage[] = system ? [{ role: 'system', content: system }] : [];
  return [...head, ...messages.flatMap(toWire)];
}

export function openAiTools(tools: readonly ToolSpec[]) {
  return tools.map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}
