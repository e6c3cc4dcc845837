/**
 * What a turn looks like in the agent log: the user's prompt, then per model call a reasoning
 * row and an assistant row that fill in as the model streams, a tool row per call (its input
 * first, then its result or error), and, when the turn fails, one assistant row marked `error`
 * saying why in plain words. Rows are created lazily: a step without reasoning has no
 * reasoning row, a tool-only step no empty assistant row.
 */
import type { AgentLog, RowHandle } from './agent-log.ts';
import type { ToolCall } from './providers/types.ts';
import type { TurnSink } from './turn-loop.ts';

export interface TurnRecorder extends TurnSink {
  /** Writes the failure row; returns its id. */
  failed(error: string): number;
}

export function createTurnRecorder(log: AgentLog, persona: string): TurnRecorder {
  let reasoning: RowHandle | undefined;
  let answer: RowHandle | undefined;
  const tools = new Map<string, RowHandle>();
  const closeStep = () => {
    reasoning?.finish();
    answer?.finish();
    reasoning = undefined;
    answer = undefined;
  };
  return {
    text(delta) {
      answer ??= log.add({ role: 'assistant', persona, text: '' });
      answer.append(delta);
    },
    reasoning(delta) {
      reasoning ??= log.add({ role: 'reasoning', persona, text: '' });
      reasoning.append(delta);
    },
    stepEnd: closeStep,
    toolStart(call: ToolCall) {
      const row = log.add({
        role: 'tool',
        persona,
        text: `${call.name} …`,
        tool: { name: call.name, input: call.input },
      });
      tools.set(call.id, row);
    },
    toolEnd(call, outcome) {
      const row = tools.get(call.id);
      tools.delete(call.id);
      if ('error' in outcome) {
        row?.finish({
          text: `${call.name} failed: ${outcome.error}`,
          tool: { name: call.name, input: call.input, error: outcome.error },
        });
      } else {
        row?.finish({ text: call.name, tool: { name: call.name, input: call.input, result: outcome.result } });
      }
    },
    failed(error) {
      closeStep();
      for (const row of tools.values()) row.finish();
      tools.clear();
      const row = log.add({ role: 'assistant', persona, text: `error: ${error}`, error: true });
      row.finish();
      return row.id;
    },
  };
}
