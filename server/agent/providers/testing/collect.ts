/** Test helper: drain a provider stream into its events, text, reasoning and tool calls. */
import type { ModelProvider, ProviderEvent, ToolCall } from '../types.ts';
import type { ChatRequest } from '../types.ts';

export interface Collected {
  events: ProviderEvent[];
  text: string;
  reasoning: string;
  calls: ToolCall[];
  last: ProviderEvent | undefined;
}

export async function collect(provider: ModelProvider, request: Partial<ChatRequest> = {}): Promise<Collected> {
  const events: ProviderEvent[] = [];
  const full: ChatRequest = {
    system: 'You are a small robot.',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
    ...request,
  };
  for await (const event of provider.stream(full)) events.push(event);
  const pick = (type: 'text' | 'reasoning') => events.flatMap((e) => (e.type === type ? [e.text] : [])).join('');
  return {
    events,
    text: pick('text'),
    reasoning: pick('reasoning'),
    calls: events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : [])),
    last: events.at(-1),
  };
}
