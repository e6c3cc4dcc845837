/**
 * What a fake model server answers, independent of its wire protocol: each fake renders these
 * replies as its own documented stream (fake-openai.ts, fake-anthropic.ts). A test scripts the
 * model per request: "look left" becomes a `look {yaw: 30}` tool call, a tool result becomes a
 * short closing sentence, and a reply can also hang (for watchdogs), fail with an HTTP status,
 * fail inside the stream, or be cut off.
 */

export interface FakeToolCall {
  name: string;
  input: unknown;
  id?: string;
}

export type FakeReply =
  | { kind: 'answer'; text?: string; reasoning?: string; toolCalls?: FakeToolCall[] }
  /** Headers and the opening frame, then nothing: the body never ends until the client leaves. */
  | { kind: 'hang' }
  | { kind: 'http_error'; status: number; message: string }
  /** Some text, then the protocol's in-stream error frame. */
  | { kind: 'stream_error'; message: string; textBefore?: string }
  /** Some text, then the body ends without the protocol's end marker. */
  | { kind: 'cut'; textBefore?: string };

/** The request as a script sees it, whatever the protocol. */
export interface FakeRequest {
  model: string;
  system: string;
  /** The text of the newest user message ('' when the newest message carries tool results). */
  lastUserText: string;
  /** Tool results in the newest message: the model is being told what its calls did. */
  toolResults: Array<{ id: string; content: string; isError: boolean }>;
  toolNames: string[];
  /** How many images the request carries (the snapshot tool's picture). */
  images: number;
  raw: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export type Script = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

/** Direction words → the head yaw the model would choose (positive yaw turns the head left). */
const LOOKS: Array<[RegExp, Record<string, number>]> = [
  [/look (to the )?left/i, { yaw: 30 }],
  [/look (to the )?right/i, { yaw: -30 }],
  [/look up/i, { pitch: -15 }],
  [/look down/i, { pitch: 15 }],
];

/**
 * A plausible small model: directions become look calls, "snapshot"/"see" a snapshot call,
 * "say X" a say call, a tool result is acknowledged, anything else is echoed back.
 */
export const defaultScript: Script = (request) => {
  if (request.toolResults.length > 0) {
    const failed = request.toolResults.find((r) => r.isError);
    return { kind: 'answer', text: failed ? `That did not work: ${failed.content}` : 'Done.' };
  }
  const text = request.lastUserText;
  for (const [pattern, input] of LOOKS) {
    if (pattern.test(text)) return { kind: 'answer', text: 'Looking.', toolCalls: [{ name: 'look', input }] };
  }
  if (/snapshot|what do you see/i.test(text)) return { kind: 'answer', toolCalls: [{ name: 'snapshot', input: {} }] };
  const say = /^say (.+)$/i.exec(text.trim());
  if (say) return { kind: 'answer', toolCalls: [{ name: 'say', input: { text: say[1] } }] };
  return { kind: 'answer', text: `You said: ${text}` };
};

/** Splits text into pieces of about `size` characters, as a model streams tokens. */
export function pieces(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
