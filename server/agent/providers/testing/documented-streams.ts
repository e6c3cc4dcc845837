/**
 * Example streams as the vendors document them, rewritten with our own ids and words but with
 * the documented frame order and field shapes:
 * - OpenAI API reference, "The chat completion chunk object" and the function-calling guide's
 *   streaming section (tool_calls deltas keyed by index; only the first piece names the call).
 * - Anthropic "Streaming Messages": the basic text stream, "Streaming request with tool use",
 *   "Streaming request with extended thinking" and the mid-stream error event.
 * The fakes are checked against these (fake-*.test.ts), and so are the decoders.
 */

const openAiChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-doc1',
    object: 'chat.completion.chunk',
    created: 1694268190,
    model: 'gpt-4o-mini',
    system_fingerprint: 'fp_44709d6fcb',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })}\n\n`;

export const OPENAI_TEXT_STREAM: readonly string[] = [
  openAiChunk({ role: 'assistant', content: '' }),
  openAiChunk({ content: 'Hello' }),
  openAiChunk({ content: '!' }),
  openAiChunk({ content: ' How can I help?' }),
  openAiChunk({}, 'stop'),
  'data: [DONE]\n\n',
];

/** On the wire later pieces omit id, type and name (the SDKs print them as null/None). */
const piece = (args: string) => ({ index: 0, function: { arguments: args } });

export const OPENAI_TOOL_STREAM: readonly string[] = [
  openAiChunk({
    role: 'assistant',
    content: null,
    tool_calls: [{ index: 0, id: 'call_doc1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
  }),
  openAiChunk({ tool_calls: [piece('{"')] }),
  openAiChunk({ tool_calls: [piece('location')] }),
  openAiChunk({ tool_calls: [piece('":"')] }),
  openAiChunk({ tool_calls: [piece('Paris, France')] }),
  openAiChunk({ tool_calls: [piece('"}')] }),
  openAiChunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
];

const anthropicEvent = (event: string, data: Record<string, unknown>) =>
  `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

const messageStart = anthropicEvent('message_start', {
  message: {
    id: 'msg_doc1',
    type: 'message',
    role: 'assistant',
    content: [],
    model: 'claude-sonnet-4-5',
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 1 },
  },
});

export const ANTHROPIC_TEXT_STREAM: readonly string[] = [
  messageStart,
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  anthropicEvent('ping', {}),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: '!' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
  anthropicEvent('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 15 },
  }),
  anthropicEvent('message_stop', {}),
];

const json = (partial_json: string) => ({ type: 'input_json_delta', partial_json });

export const ANTHROPIC_TOOL_STREAM: readonly string[] = [
  messageStart,
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  anthropicEvent('ping', {}),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Let me check' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' the weather.' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
  anthropicEvent('content_block_start', {
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_doc1', name: 'get_weather', input: {} },
  }),
  anthropicEvent('content_block_delta', { index: 1, delta: json('') }),
  anthropicEvent('content_block_delta', { index: 1, delta: json('{"location":') }),
  anthropicEvent('content_block_delta', { index: 1, delta: json(' "San Francisco, CA"') }),
  anthropicEvent('content_block_delta', { index: 1, delta: json(', "unit": "fahrenheit"}') }),
  anthropicEvent('content_block_stop', { index: 1 }),
  anthropicEvent('message_delta', {
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 89 },
  }),
  anthropicEvent('message_stop', {}),
];

export const ANTHROPIC_THINKING_STREAM: readonly string[] = [
  messageStart,
  anthropicEvent('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'First, 27 * 453' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: ' = 12231.' } }),
  anthropicEvent('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }),
  anthropicEvent('content_block_stop', { index: 0 }),
  anthropicEvent('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
  anthropicEvent('content_block_delta', { index: 1, delta: { type: 'text_delta', text: '27 * 453 = 12,231' } }),
  anthropicEvent('content_block_stop', { index: 1 }),
  anthropicEvent('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 40 },
  }),
  anthropicEvent('message_stop', {}),
];

export const ANTHROPIC_ERROR_FRAME = anthropicEvent('error', {
  error: { type: 'overloaded_error', message: 'Overloaded' },
});

/**
 * The shape of a JSON value: strings, numbers and booleans by type, objects by their keys,
 * arrays by the shapes they contain. Two frames with the same shape differ only in content.
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return [...new Set(value.map((v) => JSON.stringify(shapeOf(v))))].sort();
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries.map(([k, v]) => [k, shapeOf(v)]));
  }
  return typeof value;
}

/** A stream as its sequence of (event name, data shape), repeats collapsed. */
export function streamShape(frames: readonly string[]): string[] {
  const out: string[] = [];
  for (const frame of frames) {
    const event = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
    const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '';
    const shape = data === '[DONE]' ? '[DONE]' : JSON.stringify(shapeOf(JSON.parse(data)));
    const entry = `${event}|${shape}`;
    if (out[out.length - 1] !== entry) out.push(entry);
  }
  return out;
}
