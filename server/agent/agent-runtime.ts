/**
 * The agent runtime: starts one turn for a persona with the configured model, the robot's
 * tools (plus the fleet tools, unless the turn itself came through the fleet: a one-hop depth
 * cap, docs/platform.md, "Errors"), the watchdog and the latched stop, and records it in the agent
 * log. `start` writes the user's row and returns its id at once; the turn runs on.
 */
import type { Schedule } from '../clock.ts';
import type { CredentialKind } from '../contract/ws.ts';
import type { Log } from '../log.ts';
import type { StopLatch } from '../motion/stop-latch.ts';
import type { AgentLog } from './agent-log.ts';
import { PERSONA_PROMPTS, type Persona } from './prompts.ts';
import type { ChatMessage, ImagePart, ModelProvider } from './providers/types.ts';
import { watchLatch } from './stop-signal.ts';
import type { AgentTool } from './tools/types.ts';
import { runTurnLoop } from './turn-loop.ts';
import { createTurnRecorder } from './turn-recorder.ts';
import { startWatchdog, type WatchdogLimits } from './watchdog.ts';

export interface TurnRequest {
  persona: Persona;
  prompt: string;
  /** The turn arrived through the fleet (relay or /api/chat): it gets no fleet tools. */
  fleet: boolean;
  credential: CredentialKind;
  limits: WatchdogLimits;
  /** The caller giving up (the chat wait, the relay's budget) aborts the turn too. */
  signal?: AbortSignal;
}

export interface TurnResult {
  ok: boolean;
  /** The model's answer (every step's text), possibly partial when the turn failed. */
  text: string;
  error?: string;
  seconds: number;
  /** Pictures the turn's tools took (the camera snapshot), for answers that carry them (fleet replies). */
  images?: ImagePart[];
}

export interface StartedTurn {
  /** The id of the user's row in the agent log. */
  rowId: number;
  done: Promise<TurnResult>;
}

export interface AgentRuntimeDeps {
  /** The configured model; throws 503 NOT_CONFIGURED when there is none (model-settings.ts). */
  model: { provider(): ModelProvider };
  tools: readonly AgentTool[];
  /** Tools that reach other devices (use_device), offered only to turns not from the fleet. */
  fleetTools?: () => readonly AgentTool[];
  agentLog: AgentLog;
  latch: Pick<StopLatch, 'engaged'>;
  log: Log;
  now?: () => number;
  /** The turn watchdog's timers (server/clock.ts); real time when absent. */
  schedule?: Schedule;
  /**
   * Where the running turns are kept, when the caller counts them too: the latched stop is built
   * before the agent (whose tools use it) and counts its turns for the receipt from this set.
   */
  running?: Set<AbortController>;
}

export interface AgentRuntime {
  start(request: TurnRequest): StartedTurn;
  toolsFor(fleet: boolean): AgentTool[];
  /** Aborts every running turn (shutdown); each still writes its error row. */
  abortAll(reason: Error): void;
  /** How many turns run now, of any persona. */
  runningTurns(): number;
}

export function createAgentRuntime(deps: AgentRuntimeDeps): AgentRuntime {
  const now = deps.now ?? Date.now;
  const running = deps.running ?? new Set<AbortController>();
  const toolsFor = (fleet: boolean): AgentTool[] => {
    if (fleet) return [...deps.tools];
    const own = new Set(deps.tools.map((t) => t.name));
    return [...deps.tools, ...(deps.fleetTools?.() ?? []).filter((t) => !own.has(t.name))];
  };
  return {
    toolsFor,
    runningTurns: () => running.size,
    start(request) {
      const provider = deps.model.provider();
      const userRow = deps.agentLog.add({ role: 'user', persona: request.persona, text: request.prompt });
      userRow.finish();
      const controller = new AbortController();
      running.add(controller);
      const done = runTurn(deps, provider, toolsFor(request.fleet), request, { now, controller });
      void done.finally(() => running.delete(controller));
      return { rowId: userRow.id, done };
    },
    abortAll(reason) {
      for (const controller of running) controller.abort(reason);
    },
  };
}

async function runTurn(
  deps: AgentRuntimeDeps,
  provider: ModelProvider,
  tools: AgentTool[],
  request: TurnRequest,
  { now, controller }: { now: () => number; controller: AbortController },
): Promise<TurnResult> {
  const started = now();
  const onCallerAbort = () => controller.abort(request.signal?.reason ?? new Error('the caller gave up'));
  if (request.signal?.aborted) onCallerAbort();
  request.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const unwatch = watchLatch(deps.latch, controller);
  const watchdog = startWatchdog(request.limits, (reason) => controller.abort(reason), deps.schedule);
  const recorder = createTurnRecorder(deps.agentLog, request.persona);
  const seconds = () => Math.round((now() - started) / 100) / 10;
  const messages: ChatMessage[] = [{ role: 'user', content: request.prompt }];
  try {
    const result = await runTurnLoop({
      provider,
      system: PERSONA_PROMPTS[request.persona],
      messages,
      tools,
      ctx: {
        signal: controller.signal,
        fleet: request.fleet,
        persona: request.persona,
        credential: request.credential,
      },
      sink: recorder,
      onActivity: () => watchdog.touch(),
      busy: (work) => watchdog.busy(work),
    });
    if (result.ok) {
      const images = messages.flatMap((m) => (m.role === 'tool' ? m.results.flatMap((r) => r.images ?? []) : []));
      return { ok: true, text: result.text, seconds: seconds(), ...(images.length > 0 ? { images } : {}) };
    }
    recorder.failed(result.error);
    return { ok: false, text: result.text, error: result.error, seconds: seconds() };
  } catch (error) {
    // A bug, not a model failure: still a row and an answer, never an unhandled rejection.
    deps.log.error('agent turn crashed', { persona: request.persona, error: String((error as Error)?.stack ?? error) });
    const message = `internal error: ${(error as Error)?.message ?? String(error)}`;
    recorder.failed(message);
    return { ok: false, text: '', error: message, seconds: seconds() };
  } finally {
    watchdog.stop();
    unwatch();
    request.signal?.removeEventListener('abort', onCallerAbort);
    controller.abort(new Error('turn over'));
  }
}
