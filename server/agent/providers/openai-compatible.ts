/**
 * The OpenAI-compatible chat-completions provider: OpenAI itself and every local server that
 * speaks the same protocol at `<baseUrl>/chat/completions` (Ollama at :11434/v1, llama.cpp's
 * llama-server, vLLM, LM Studio). The key is optional: local servers take none.
 */
import { joinUrl, streamSse } from './http-stream.ts';
import { OpenAiStreamDecoder } from './openai-stream.ts';
import { openAiMessages, openAiTools } from './openai-wire.ts';
import type { ChatRequest, FetchLike, ModelProvider } from './types.ts';

export interface OpenAiProviderOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  model: string;
  key?: string;
  fetch?: FetchLike;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAiProvider(options: OpenAiProviderOptions): ModelProvider {
  const fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
  return {
    kind: 'openai',
    model: options.model,
    stream(request) {
      const decoder = new OpenAiStreamDecoder();
      return streamSse(
        fetchFn,
        {
          url: joinUrl(options.baseUrl, 'chat/completions'),
          headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
          body: requestBody(options, request),
          signal: request.signal,
        },
        { feed: (frame) => decoder.feed(frame.data), end: () => decoder.end() },
      );
    },
  };
}

function requestBody(options: OpenAiProviderOptions, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.model,
    messages: openAiMessages(request.system, request.messages),
    stream: true,
  };
  // An empty tools array is refused by some servers: leave the field out instead.
  if (request.tools.length > 0) body.tools = openAiTools(request.tools);
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  return body;
}
