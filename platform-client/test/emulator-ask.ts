/**
 * The device ask of the emulator (docs/platform.md, "Devices": POST /api/devices/ask, LR;
 * docs/platform.md, "Devices"): `text` of at most 4000 characters or an `audioUrl`, answered by a
 * scripted agent. With `stream: "1"` the answer is SSE: `: thinking` every 10 s, `data: {"t"}`
 * frames of about four words, an optional card, an in-stream `{error}`, then `data: [DONE]`;
 * without it `{ok, text (≤2000), card?}`. Refusals the proxy passes through keep their status.
 */
import {
  bodyDevice,
  fail,
  ok,
  type EmuContext,
  type EmuReply,
  type EmuRequest,
  type SseOut,
} from './emulator-context.ts';
import { device } from './emulator-device-routes.ts';
import { every } from './emulator-sse.ts';
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

/** What the ask carried besides the text: the audio to transcribe and the agent chosen. */
export interface EmuAskExtra {
  audioUrl?: string;
  /**
   * The agent that answers. docs/platform.md names the field only as the "tiny-equivalent agent";
   * the emulator reads every spelling that phrase allows: `svc` (the naming rule), `tiny` (the
   * original word, docs/platform.md, "Devices") and `agent`.
   */
  agent?: string;
}

/** The scripted agent: the text asked, the device asking and the rest of the ask; may take time. */
export type EmuAskScript = (
  text: string,
  device: EmuDevice,
  extra: EmuAskExtra,
) => EmuAskAnswer | Promise<EmuAskAnswer>;

/** The default agent echoes what it was asked. */
export const defaultAskScript: EmuAskScript = (text) => ({ text: `You asked: ${text.slice(0, 200)}` });

const PASSED_THROUGH = [400, 401, 402, 404, 422];
/** The worker's keep-alive while the agent thinks (docs/platform.md, "Devices"). */
const THINKING_MS = 10_000;

/** Splits text into pieces of about four words, keeping the spaces, as the worker streams them. */
export function wordPieces(text: string, words = 4): string[] {
  const tokens = text.match(/\s*\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += words) out.push(tokens.slice(i, i + words).join(''));
  return out;
}

/** The answer's frames after the keep-alives: four-word `t` pieces, a card, an error, [DONE]. */
function writeAnswer(out: SseOut, answer: EmuAskAnswer): void {
  for (const t of wordPieces(answer.text ?? '')) out.data({ t });
  if (answer.card) out.data({ card: answer.card });
  if (answer.error) out.data({ error: answer.error });
  if (!answer.cutOff) out.data('[DONE]');
}

/** The agent field under any spelling the contract's "tiny-equivalent agent" allows. */
function agentOf(body: Record<string, unknown>): string | undefined {
  const value = body.svc ?? body.tiny ?? body.agent;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Builds the ask route over the context's scripted agent. With `stream: "1"` the stream opens
 * at once with a `: thinking` comment and sends one every 10 s until the agent answers; a
 * refusal the agent decides only later becomes an in-stream error frame.
 */
export function askRoute(
  script: () => EmuAskScript,
): (req: EmuRequest, ctx: EmuContext) => EmuReply | Promise<EmuReply> {
  const checked = device((req) => {
    const { text, audioUrl } = req.body;
    if (text === undefined && audioUrl === undefined) return fail(400, 'text or audioUrl required');
    if (text !== undefined && (typeof text !== 'string' || text.trim() === '' || text.length > 4000))
      return fail(400, 'text must be 1-4000 characters');
    if (audioUrl !== undefined && (typeof audioUrl !== 'string' || !audioUrl.startsWith('https://')))
      return fail(400, 'audioUrl must be https');
    return { status: 200 };
  });
  return async (req, ctx) => {
    const refused = checked(req, ctx);
    if (refused.status !== 200) return refused;
    const dev = bodyDevice(req, ctx) as EmuDevice;
    const { text, audioUrl, stream } = req.body;
    const extra: EmuAskExtra = {};
    if (typeof audioUrl === 'string') extra.audioUrl = audioUrl;
    const agent = agentOf(req.body);
    if (agent) extra.agent = agent;
    const pending = Promise.resolve(script()(typeof text === 'string' ? text : '[transcribed audio]', dev, extra));
    if (stream === '1') {
      // The status is decided before the agent runs; it is an in-stream error if the agent refuses.
      const early = await Promise.race([pending, new Promise<null>((r) => setImmediate(() => r(null)))]);
      if (early?.status !== undefined)
        return fail(PASSED_THROUGH.includes(early.status) ? early.status : 424, early.error ?? 'ask failed');
      return {
        status: 200,
        live: async (out) => {
          out.comment('thinking');
          const stop = every(ctx.timers, THINKING_MS, () => out.comment('thinking'));
          const answer = await pending.finally(stop);
          writeAnswer(out, answer.status !== undefined ? { error: answer.error ?? 'ask failed' } : answer);
        },
      };
    }
    const answer = await pending;
    if (answer.status !== undefined)
      return fail(PASSED_THROUGH.includes(answer.status) ? answer.status : 424, answer.error ?? 'ask failed');
    if (answer.error) return fail(424, answer.error);
    return ok({ text: (answer.text ?? '').slice(0, 2000), ...(answer.card ? { card: answer.card } : {}) });
  };
}
