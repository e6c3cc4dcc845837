/**
 * Fleet turns: a prompt from another device of the owner's fleet, run for the persona "fleet"
 * WITHOUT the fleet tools (one-hop depth cap, docs/platform.md, "Errors"). Two doors lead here:
 * POST /api/chat, which the platform's endpoint proxy calls and which waits up to 75 s
 * (docs/contract.md, "Limits") before a 504, and `runFleetTurn`, which the platform client calls for
 * relay `invoke` envelopes with its own budget and signal.
 */
import { realSchedule, type Schedule } from '../clock.ts';
import type { CredentialKind } from '../contract/ws.ts';
import { AppError } from '../errors.ts';
import type { AgentRuntime } from './agent-runtime.ts';
import type { WatchdogLimits } from './watchdog.ts';

export interface ChatAnswer {
  ok: boolean;
  result: string;
  reply: string;
  seconds: number;
  error?: string;
}

/** What the platform client hands over for a relay invoke (its FleetTurn fits this shape). */
export interface FleetTurnInput {
  prompt: string;
  depth: number;
  signal?: AbortSignal;
}

export interface FleetChat {
  /** Waits for the answer; 504 TIMEOUT past the wait (the turn is then aborted). */
  chat(prompt: string, credential: CredentialKind): Promise<ChatAnswer>;
  /**
   * Resolves with the answer text and the pictures its tools took (the relay reply carries them
   * as /api/media URLs); rejects with the reason when the turn fails.
   */
  runFleetTurn(turn: FleetTurnInput): Promise<FleetTurnAnswer>;
}

/** A fleet turn's answer: its text and the pictures (bytes and media type) its tools took. */
export interface FleetTurnAnswer {
  text: string;
  images?: Array<{ data: Uint8Array; contentType: string }>;
}

export const CHAT_WAIT_MS = 75_000;
/** The endpoint chat budget is 90 s end to end (docs/platform.md, "Devices"). */
export const FLEET_LIMITS: WatchdogLimits = Object.freeze({ overallMs: 90_000, idleMs: 20_000 });

const seconds = (ms: number) => (ms < 1000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));

export function createFleetChat(deps: {
  runtime: AgentRuntime;
  waitMs?: number;
  limits?: WatchdogLimits;
  now?: () => number;
  /** The chat wait's timer (server/clock.ts); real time when absent. */
  schedule?: Schedule;
}): FleetChat {
  const waitMs = deps.waitMs ?? CHAT_WAIT_MS;
  const limits = deps.limits ?? FLEET_LIMITS;
  const now = deps.now ?? Date.now;
  const schedule = deps.schedule ?? realSchedule;
  return {
    async chat(prompt, credential) {
      const started = now();
      const controller = new AbortController();
      const turn = deps.runtime.start({
        persona: 'fleet',
        prompt,
        fleet: true,
        credential,
        limits,
        signal: controller.signal,
      });
      let cancel = (): void => {};
      const timeout = new Promise<'timeout'>((resolve) => (cancel = schedule(() => resolve('timeout'), waitMs)));
      const outcome = await Promise.race([turn.done, timeout]);
      cancel();
      if (outcome === 'timeout') {
        const message = `no answer within ${seconds(waitMs)} s`;
        controller.abort(new Error(`the chat wait ran out: ${message}`));
        throw new AppError('TIMEOUT', message);
      }
      const elapsed = Math.round((now() - started) / 100) / 10;
      const answer: ChatAnswer = { ok: outcome.ok, result: outcome.text, reply: outcome.text, seconds: elapsed };
      return outcome.error ? { ...answer, error: outcome.error } : answer;
    },
    async runFleetTurn({ prompt, signal }) {
      const turn = deps.runtime.start({
        persona: 'fleet',
        prompt,
        fleet: true,
        credential: 'system',
        limits,
        ...(signal ? { signal } : {}),
      });
      const result = await turn.done;
      if (!result.ok) throw new Error(result.error ?? 'the turn failed');
      const images = (result.images ?? []).map((image) => ({
        data: new Uint8Array(Buffer.from(image.base64, 'base64')),
        contentType: image.mediaType,
      }));
      return images.length > 0 ? { text: result.text, images } : { text: result.text };
    },
  };
}
