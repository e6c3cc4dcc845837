/**
 * The Anthropic Messages API provider: `POST <baseUrl>/v1/messages` with `stream: true`, the
 * key in `x-api-key` and the API version in `anthropic-version` (both required by the API).
 */
import { AnthropicStreamDecoder } from './anthropic-stream.ts';
import { anthropicMessages, anthropicTools } from './anthropic-wire.ts';
import { joinUrl, streamSse } from './http-stream.ts';
import type { ChatRequest, FetchLike, ModelProvider } from './types.ts';

export interface AnthropicProviderOptions {
  /** https://api.anthropic.com, or a proxy speaking the same protocol. */
  baseUrl: string;
  model: string;
  key: string;
  fetch?: FetchLike;
}

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';
/** max_tokens is required by the API; robot answers are short. */
const DEFAULT_MAX_TOKENS = 1024;

export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
  return {
    kind: 'anthropic',
    model: options.model,
    stream(request) {
      const decoder = new AnthropicStreamDecoder();
      return streamSse(
        fetchFn,
        {
          url: joinUrl(options.baseUrl, 'v1/messages'),
          headers: { 'x-api-key': options.key, 'anthropic-version': ANTHROPIC_VERSION },
          body: requestBody(options, request),
          signal: request.signal,
        },
        { feed: (frame) => decoder.feed(frame.event, frame.data), end: () => decoder.end() },
      );
    },
  };
}

function requestBody(options: AnthropicProviderOptions, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: options.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages: anthropicMessages(request.messages),
    stream: true,
  };
  if (request.system) body.system = request.system;
  if (request.tools.length > 0) body.tools = anthropicTools(request.tools);
  return body;
}
