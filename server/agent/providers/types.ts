/**
 * The one model-provider interface of the agent runtime: a streaming chat turn with
 * tools. Messages go in, an async stream of events comes out. Every provider (OpenAI-compatible,
 * Anthropic, the hosted platform) maps its wire protocol onto these shapes, so the runtime, the
 * watchdog and the agent log never see a vendor format.
 */
import type { ProviderKind } from '../../contract/model-settings.ts';

export type { ProviderKind };

/** An image given to the model (the camera snapshot), base64 without a data: prefix. */
export interface ImagePart {
  mediaType: 'image/jpeg' | 'image/png' | 'image/webp';
  base64: string;
}

/** A tool call the model asked for; `input` is the parsed JSON arguments. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultMessage {
  /** The ToolCall id this answers. */
  id: string;
  name: string;
  /** What the model reads: JSON text of the tool's result, or the error. */
  content: string;
  isError: boolean;
  images?: ImagePart[];
}

export type ChatMessage =
  | { role: 'user'; content: string; images?: ImagePart[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool'; results: ToolResultMessage[] };

/** A tool as offered to the model: name, description and a JSON-schema object for its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  /** Aborts the HTTP request and ends the stream with an error event. */
  signal: AbortSignal;
  /** Upper bound of generated tokens, where the protocol takes one. */
  maxTokens?: number;
  /**
   * Runs one of `tools` now, for providers whose model calls the robot's tools in the middle of
   * its stream (the platform chat's client-side tools). The turn loop passes it; the run is
   * logged and guarded like any other tool call.
   */
  runTool?: (call: ToolCall) => Promise<ToolResultMessage>;
}

/**
 * What a provider streams. The stream always ends with exactly one `done` or `error`; providers
 * never throw (a transport failure, an HTTP error, a cut-off stream or an abort is an `error`).
 * Tool calls are emitted whole, once their JSON arguments are complete.
 */
export type ProviderEvent =
  | { type: 'start'; model?: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; call: ToolCall; invalid?: string }
  /** A tool the model's host ran itself (the platform's server-side tools): for the log only. */
  | { type: 'remote_tool'; call: ToolCall; outcome?: { result: unknown } | { error: string } }
  | { type: 'done'; stopReason: string }
  | { type: 'error'; error: string };

export interface ModelProvider {
  readonly kind: ProviderKind;
  /** The configured model name (the platform provider names the platform's agent). */
  readonly model: string;
  stream(request: ChatRequest): AsyncIterable<ProviderEvent>;
}

/** The fetch the HTTP providers use; tests and the composition root may pass undici's or a wrapper. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
