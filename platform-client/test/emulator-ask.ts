/**
 * The device ask of the emulator (platform-api.md "Devices": POST /api/devices/ask, LR;
 * reference-notes §2.6): `text` of at most 4000 characters or an `audioUrl`, answered by a
 * scripted agent. With `stream: "1"` the answer is SSE: a `: thinking` comment, `data: {"t"}`
 * frames of about four words, an optional card, an in-stream `{error}`, then `data: [DONE]`;
 * without it `{ok, text (≤2000), card?}`. Refusals the proxy passes through keep their status.
 */
import { fail, ok, type EmuHandler } from './emulator-context.ts';
import { device } from './emulator-device-routes.ts';
import type { EmuDevice } from './emulator-state.ts';

/** What the scripted agent answers. */
export interface EmuAskAnswer {
  text?: string;
  card?: Record<string, unknown>;
  /** An in-stream error frame after the text (or the JSON answer's 424). */
  error?: string;
  /** A refusal before any stream: 400, 401, 402, 404 and 422 pass through, the rest is 424. */
  status?: number;
  /** The body ends without [DONE], as a cut-off stream does. */
  cutOff?: boolean;
}

/** The scripted agent: the text asked and the device asking. */
export type EmuAskScript = (text: string, device: EmuDevice) => EmuAskAnswer;

/** The default agent echoes what it was asked. */
export const defaultAskScript: EmuAskScript = (text) => ({ text: `You asked: ${text.slice(0, 200)}` });

const PASSED_THROUGH = [400, 401, 402, 404, 422];

/** Splits text into pieces of about four words, keeping the spaces, as the worker streams them. */
export function wordPieces(text: string, words = 4): string[] {
  const tokens = text.match(/\s*\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += words) out.push(tokens.slice(i, i + words).join(''));
  return out;
}

function sseFrames(answer: EmuAskAnswer): string[] {
  const data = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
  const frames = [': thinking\n\n', ...wordPieces(answer.text ?? '').map((t) => data({ t }))];
  if (answer.card) frames.push(data({ card: answer.card }));
  if (answer.error) frames.push(data({ error: answer.error }));
  if (!answer.cutOff) frames.push(data('[DONE]'));
  return frames;
}

/** Builds the ask route over the context's scripted agent. */
export function askRoute(script: () => EmuAskScript): EmuHandler {
  return device((req, _ctx, dev) => {
    const { text, audioUrl, stream } = req.body;
    if (text === undefined && audioUrl === undefined) return fail(400, 'text or audioUrl required');
    if (text !== undefined && (typeof text !== 'string' || text.trim() === '' || text.length > 4000))
      return fail(400, 'text must be 1-4000 characters');
    if (audioUrl !== undefined && (typeof audioUrl !== 'string' || !audioUrl.startsWith('https://')))
      return fail(400, 'audioUrl must be https');
    const answer = script()(typeof text === 'string' ? text : '[transcribed audio]', dev);
    if (answer.status !== undefined)
      return fail(PASSED_THROUGH.includes(answer.status) ? answer.status : 424, answer.error ?? 'ask failed');
    if (stream === '1') return { status: 200, sse: sseFrames(answer) };
    if (answer.error) return fail(424, answer.error);
    return ok({ text: (answer.text ?? '').slice(0, 2000), ...(answer.card ? { card: answer.card } : {}) });
  });
}
