/**
 * One thinker action: by the rules when no model is configured, else by the model with just the
 * one tool of this cycle's kind and room for exactly one call. A model that fails or declines
 * to act leaves the cycle to the rules, so every cycle still makes its one gesture.
 */
import type { MoveLibraryCache } from '../../motion/move-library.ts';
import type { ToolRecord } from '../../agent/log-row.ts';
import { PERSONA_PROMPTS } from '../../agent/prompts.ts';
import type { ModelProvider, ToolCall } from '../../agent/providers/types.ts';
import { ACTION_LABELS, planByRules, type ActionKind } from './thinker-actions.ts';
import type { AgentTool, ToolContext } from '../../agent/tools/types.ts';
import { runTurnLoop, type TurnSink } from '../../agent/turn-loop.ts';
import type { Watchdog } from '../../agent/watchdog.ts';
import { abortReason } from '../../agent/providers/http-stream.ts';
import { messageOf } from '../../errors.ts';

export interface ActionOutcome {
  /** The journal line. */
  text: string;
  tool: ToolRecord;
  /** The model was asked and failed (not: declined to act): the thinker rests it (thinker.ts). */
  modelFailed?: true;
}

async function runOne(tool: AgentTool, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolRecord> {
  try {
    // Demo mode or a pause may have come while the move library was read: the gesture is off then.
    // The latched stop would be refused by Control anyway; demo mode is not, it relies on this.
    if (ctx.signal.aborted) throw new Error(abortReason(ctx.signal));
    return { name: tool.name, input, result: await tool.run(input, ctx) };
  } catch (error) {
    return { name: tool.name, input, error: messageOf(error) };
  }
}

export async function actByRules(
  kind: ActionKind,
  tool: AgentTool,
  deps: { moves: Pick<MoveLibraryCache, 'get'>; random: () => number },
  ctx: ToolContext,
): Promise<ActionOutcome> {
  const names =
    kind === 'emotion'
      ? await deps.moves.get().then(
          (l) => l.moves.map((m) => m.name),
          () => [],
        )
      : [];
  const plan = planByRules(kind, deps.random, names);
  const record = await runOne(tool, plan.input, ctx);
  return { text: record.error ? `I tried ${ACTION_LABELS[kind]}, but: ${record.error}` : plan.text, tool: record };
}

export async function actByModel(
  kind: ActionKind,
  tool: AgentTool,
  deps: { provider: ModelProvider; moves: Pick<MoveLibraryCache, 'get'>; random: () => number; watchdog: Watchdog },
  ctx: ToolContext,
): Promise<ActionOutcome> {
  let journal = '';
  let record: ToolRecord | undefined;
  const sink: TurnSink = {
    text: (delta) => void (journal += delta),
    reasoning: () => undefined,
    stepEnd: () => undefined,
    toolStart: () => undefined,
    // The first call is the action: any later one in the answer was refused (one action a cycle).
    toolEnd: (call: ToolCall, outcome) => void (record ??= { name: call.name, input: call.input, ...outcome }),
  };
  const prompt = `Make ${ACTION_LABELS[kind]} now. In one reply, write one short journal line and call the ${tool.name} tool once.`;
  const result = await runTurnLoop({
    provider: deps.provider,
    system: PERSONA_PROMPTS.thinker,
    messages: [{ role: 'user', content: prompt }],
    tools: [tool],
    ctx,
    sink,
    onActivity: () => deps.watchdog.touch(),
    busy: (work) => deps.watchdog.busy(work),
    maxSteps: 1,
    maxToolCalls: 1,
  });
  if (record) return { text: journal.trim() || `I chose ${ACTION_LABELS[kind]}.`, tool: record };
  if (ctx.signal.aborted)
    return {
      text: `I was interrupted before ${ACTION_LABELS[kind]}.`,
      tool: { name: tool.name, input: {}, error: 'interrupted' },
    };
  const fallback = await actByRules(kind, tool, deps, ctx);
  const why = result.ok ? 'the model did not act' : `the model failed: ${result.error}`;
  return {
    ...fallback,
    text: `${fallback.text} (${why}; the rules chose)`,
    ...(result.ok ? {} : { modelFailed: true }),
  };
}
