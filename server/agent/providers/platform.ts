/**
 * The 'platform' provider: model turns through the hosted agent platform the robot is enrolled
 * in, streamed over its chat (POST /api/chat, docs/platform.md, "Chat stream") by the platform
 * client with the owner's session. Text and reasoning reach the agent log as they arrive; the
 * platform's own tools show as tool rows; the robot's tools are called by the platform's agent
 * in the middle of the stream (`beforeToolCallEvent`) and run here through `request.runTool`,
 * so they are logged, gated and aborted like any other tool call. The whole turn, tool calls
 * included, is one model step for the turn loop. server/ may not import the platform client
 * (docs/architecture.md, "Folders and the direction of imports"): it reaches this provider as the `PlatformChat` of
 * server/contract/platform.ts.
 */
import type {
  PlatformChat,
  PlatformChatMessage,
  PlatformToolCall,
  PlatformToolOutcome,
} from '../../contract/platform.ts';
import { TOOL_CALL_LIMIT, tooManyTurnCalls } from './answer-limits.ts';
import { abortReason } from './http-stream.ts';
import type { ChatMessage, ChatRequest, ModelProvider, ProviderEvent, ToolCall } from './types.ts';

export function createPlatformProvider(platform: PlatformChat): ModelProvider {
  return { kind: 'platform', model: 'platform', stream: (request) => streamPlatform(platform, request) };
}

/** The conversation as chat messages: tool calls and results of earlier steps become text. */
export function platformMessages(request: ChatRequest): PlatformChatMessage[] {
  const lines = (message: ChatMessage): PlatformChatMessage => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'assistant') {
      const calls = message.toolCalls.map((c) => `[called ${c.name} ${JSON.stringify(c.input ?? {})}]`);
      return { role: 'assistant', content: [message.text, ...calls].filter(Boolean).join('\n') };
    }
    return { role: 'user', content: message.results.map((r) => `[result of ${r.name}] ${r.content}`).join('\n') };
  };
  const system: PlatformChatMessage[] = request.system.trim() ? [{ role: 'system', content: request.system }] : [];
  return [...system, ...request.messages.map(lines)];
}

/** Runs a client-side tool through the turn loop, which logs and guards it. */
async function runRobotTool(request: ChatRequest, call: PlatformToolCall): Promise<PlatformToolOutcome> {
  if (!request.runTool) return { isError: true, text: 'this turn cannot run tools' };
  const result = await request.runTool({ id: call.toolUseId, name: call.name, input: call.input ?? {} });
  return {
    isError: result.isError,
    text: result.content,
    ...(result.images ? { images: result.images.map((i) => ({ mediaType: i.mediaType, base64: i.base64 })) } : {}),
  };
}

const toolCallOf = (call: PlatformToolCall): ToolCall => ({
  id: call.toolUseId,
  name: call.name,
  input: call.input ?? {},
});

async function* streamPlatform(platform: PlatformChat, request: ChatRequest): AsyncGenerator<ProviderEvent> {
  yield { type: 'start', model: 'platform' };
  let robotCalls = 0;
  const stream = platform.chat({
    messages: platformMessages(request),
    tools: request.tools,
    // Past the limit a call is answered as refused, not run: the platform's agent may loop.
    runTool: (call) =>
      ++robotCalls > TOOL_CALL_LIMIT
        ? Promise.resolve({ isError: true, text: tooManyTurnCalls })
        : runRobotTool(request, call),
    signal: request.signal,
  });
  try {
    for await (const event of stream) {
      switch (event.type) {
        case 'text':
        case 'reasoning':
          yield event;
          break;
        case 'notice':
          yield { type: 'reasoning', text: `[${event.text}]` };
          break;
        case 'tool_start':
          yield { type: 'remote_tool', call: toolCallOf(event.call) };
          break;
        case 'tool_end':
          yield { type: 'remote_tool', call: toolCallOf(event.call), outcome: event.outcome };
          break;
        case 'error':
          yield { type: 'error', error: request.signal.aborted ? abortReason(request.signal) : event.error };
          return;
        case 'done':
          yield { type: 'done', stopReason: event.stopReason };
          return;
      }
    }
  } catch (error) {
    // The chat stream never throws by contract; a bug still ends the turn with a clear error.
    yield { type: 'error', error: `the platform chat failed: ${String((error as Error)?.message ?? error)}` };
    return;
  }
  yield { type: 'error', error: 'the platform chat ended without an answer' };
}
