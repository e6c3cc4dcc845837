/**
 * The wheeled server's agent turns (docs/contract.md, "How the wheeled server behaves": POST /api/chat and /ws/chat). Built from the
 * agent runtime's parts (server/agent): the configured model provider, the turn loop, the
 * watchdog. The desktop server's runtime is not used as a whole because its personas speak for the
 * desktop robot and log to A's agent log; B's turns get a rover's prompt, the base's tools and
 * NO fleet tools (one-hop depth cap), and stream to whoever asked (a socket, or nobody).
 */
import type { CredentialKind } from '../../contract/ws.ts';
import { AppError } from '../../errors.ts';
import type { Log } from '../../log.ts';
import type { ChatAnswer } from '../../agent/fleet-chat.ts';
import { abortReason } from '../../agent/providers/http-stream.ts';
import type { ModelSettings } from '../../agent/providers/model-settings.ts';
import type { ChatMessage } from '../../agent/providers/types.ts';
import type { AgentTool } from '../../agent/tools/types.ts';
import { runTurnLoop, type TurnSink } from '../../agent/turn-loop.ts';
import { startWatchdog, type WatchdogLimits } from '../../agent/watchdog.ts';

/** docs/contract.md, "Limits": a wheeled-server chat turn takes at most 90 s. */
export const CHAT_TURN_MS = 90_000;
export const TURN_LIMITS: WatchdogLimits = Object.freeze({ overallMs: CHAT_TURN_MS, idleMs: 20_000 });

export const WHEELED_PROMPT =
  'You are a small wheeled rover with a camera, driven by an operator from a dashboard. You act through ' +
  'your tools; never claim to have moved unless a tool did it. You may drive only while the operator has ' +
  'opened the drive gate: if the drive tool says it is closed, say so plainly. Keep answers to one or two ' +
  'short sentences.';

export interface TurnInput {
  prompt: string;
  credential: CredentialKind;
  /** Earlier messages of this conversation (a chat socket keeps them); not changed. */
  history?: readonly ChatMessage[];
  sink?: TurnSink;
  signal?: AbortSignal;
}

export interface WheeledTurnResult {
  ok: boolean;
  text: string;
  error?: string;
  seconds: number;
  /** The conversation including this turn, for the next one. */
  messages: ChatMessage[];
}

export interface WheeledAgent {
  /** Runs one turn; 503 NOT_CONFIGURED at once without a model, otherwise never throws. */
  run(input: TurnInput): Promise<WheeledTurnResult>;
  /** POST /api/chat: waits for the answer; 504 TIMEOUT after the chat wait (the turn is aborted). */
  chat(prompt: string, credential: CredentialKind): Promise<ChatAnswer>;
  configured(): boolean;
  abortAll(reason: Error): void;
}

const quiet: TurnSink = { text() {}, reasoning() {}, stepEnd() {}, toolStart() {}, toolEnd() {} };

export function createWheeledAgent(deps: {
  settings: Pick<ModelSettings, 'provider' | 'configured'>;
  tools: () => readonly AgentTool[];
  log: Log;
  limits?: WatchdogLimits;
  chatWaitMs?: number;
  now?: () => number;
}): WheeledAgent {
  const now = deps.now ?? Date.now;
  const limits = deps.limits ?? TURN_LIMITS;
  const running = new Set<AbortController>();

  const run = (input: TurnInput): Promise<WheeledTurnResult> => {
    const provider = deps.settings.provider();
    const started = now();
    const controller = new AbortController();
    running.add(controller);
    const forward = () => controller.abort(input.signal?.reason ?? new Error('the caller gave up'));
    if (input.signal?.aborted) forward();
    input.signal?.addEventListener('abort', forward, { once: true });
    const watchdog = startWatchdog(limits, (reason) => controller.abort(reason));
    const messages: ChatMessage[] = [...(input.history ?? []), { role: 'user', content: input.prompt }];
    const seconds = () => Math.round((now() - started) / 100) / 10;
    const turn = runTurnLoop({
      provider,
      system: WHEELED_PROMPT,
      messages,
      tools: deps.tools(),
      // B never offers fleet tools, so every turn counts as one that came through the fleet.
      ctx: { signal: controller.signal, fleet: true, persona: 'wheeled', credential: input.credential },
      sink: input.sink ?? quiet,
      onActivity: () => watchdog.touch(),
      busy: (work) => watchdog.busy(work),
    })
      .then((result) =>
        result.ok ? { ok: true, text: result.text } : { ok: false, text: result.text, error: result.error },
      )
      .catch((error: unknown) => {
        deps.log.error('wheeled agent turn crashed', { error: String((error as Error)?.stack ?? error) });
        return {
          ok: false,
          text: '',
          error: controller.signal.aborted ? abortReason(controller.signal) : `internal error: ${String(error)}`,
        };
      });
    return turn.then((result) => {
      watchdog.stop();
      input.signal?.removeEventListener('abort', forward);
      running.delete(controller);
      controller.abort(new Error('turn over'));
      return { ...result, seconds: seconds(), messages };
    });
  };

  return {
    run,
    configured: () => deps.settings.configured(),
    async chat(prompt, credential) {
      const waitMs = deps.chatWaitMs ?? CHAT_TURN_MS;
      const caller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), waitMs)));
      const outcome = await Promise.race([run({ prompt, credential, signal: caller.signal }), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        const message = `no answer within ${Math.round(waitMs / 100) / 10} s`;
        caller.abort(new Error(`the chat turn ran out of time: ${message}`));
        throw new AppError('TIMEOUT', message);
      }
      const answer: ChatAnswer = {
        ok: outcome.ok,
        result: outcome.text,
        reply: outcome.text,
        seconds: outcome.seconds,
      };
      return outcome.error ? { ...answer, error: outcome.error } : answer;
    },
    abortAll(reason) {
      for (const controller of running) controller.abort(reason);
    },
  };
}
