/**
 * The 'platform' provider: model turns through the hosted agent platform the robot is enrolled
 * in. A device can call exactly one model-backed route, `POST /api/devices/ask` (platform-api.md
 * "Devices"; reference-notes.md §2.6): one owner-scoped agent turn on `text` (at most 4000
 * characters), streamed as `data: {"t": "..."}` frames. It has no tool-calling channel back to
 * the device (client-side tool results need an owner session, `/api/chat/tool-result`), so tools
 * are carried in the text itself: the prompt lists them and asks for a line
 * `CALL <tool> <json>`, and those lines come back as ordinary tool calls. The conversation is
 * flattened into the same text, newest messages kept first. server/ may not import the platform
 * client (ARCHITECTURE.md §2), so the lead adapts it to `PlatformAsk`.
 */
import { abortReason } from './http-stream.ts';
import { createCallLineParser, platformPrompt } from './platform-text.ts';
import type { ChatRequest, ModelProvider, ProviderEvent } from './types.ts';

export type PlatformAskEvent = { type: 'text'; text: string } | { type: 'error'; error: string };

/** The device ask of the platform client, as the agent runtime needs it. */
export interface PlatformAsk {
  /**
   * Runs `POST /api/devices/ask {deviceId, token, text, stream: "1"}` and yields each `t` frame
   * as text and an in-stream `{error}` frame as error; returns at `[DONE]`. May also throw
   * (not enrolled, transport failure, 4xx/424): the provider turns that into an error event.
   */
  ask(input: { text: string; signal: AbortSignal }): AsyncIterable<PlatformAskEvent>;
}

export function createPlatformProvider(platform: PlatformAsk): ModelProvider {
  return { kind: 'platform', model: 'platform', stream: (request) => streamPlatform(platform, request) };
}

async function* streamPlatform(platform: PlatformAsk, request: ChatRequest): AsyncGenerator<ProviderEvent> {
  yield { type: 'start', model: 'platform' };
  const parser = createCallLineParser();
  let calls = 0;
  const emit = function* (events: ProviderEvent[]) {
    for (const event of events) {
      if (event.type === 'tool_call') calls += 1;
      yield event;
    }
  };
  try {
    for await (const event of platform.ask({ text: platformPrompt(request), signal: request.signal })) {
      if (event.type === 'error') {
        yield { type: 'error', error: `the platform answered: ${event.error}` };
        return;
      }
      yield* emit(parser.push(event.text));
    }
  } catch (error) {
    const message = request.signal.aborted
      ? abortReason(request.signal)
      : `the platform ask failed: ${String((error as Error)?.message ?? error)}`;
    yield { type: 'error', error: message };
    return;
  }
  if (request.signal.aborted) {
    yield { type: 'error', error: abortReason(request.signal) };
    return;
  }
  yield* emit(parser.end());
  yield { type: 'done', stopReason: calls > 0 ? 'tool_use' : 'end_turn' };
}
