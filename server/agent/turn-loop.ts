/**
 * One agent turn: call the model, run the tools it asks for, give it their results, and repeat
 * until it answers without tools. Plain function over its inputs; what the user sees (the agent
 * log rows) is the sink's business, and the watchdog and the latched stop act through `signal`.
 * Tool calls run one after another: they move one robot, and the arbiter would cancel a move
 * started in parallel anyway.
 */
import { ROW_TEXT_LIMIT } from './log-row.ts';
import { tooManyCalls, TOOL_CALL_LIMIT } from './providers/answer-limits.ts';
import { abortReason } from './providers/http-stream.ts';
import type { ChatMessage, ModelProvider, ToolCall, ToolResultMessage } from './providers/types.ts';
import { TOOL_IMAGES, type AgentTool, type ToolContext, type ToolOutput } from './tools/types.ts';
import { messageOf } from '../errors.ts';

export interface TurnSink {
  text(delta: string): void;
  reasoning(delta: string): void;
  /** The model call of this step is over (its text and reasoning rows are complete). */
  stepEnd(): void;
  toolStart(call: ToolCall): void;
  toolEnd(call: ToolCall, outcome: { result: unknown } | { error: string }): void;
}

export interface TurnLoopInput {
  provider: ModelProvider;
  system: string;
  /** The history so far, ending with the user's prompt; extended in place. */
  messages: ChatMessage[];
  tools: readonly AgentTool[];
  ctx: ToolContext;
  sink: TurnSink;
  /** Told about every provider event (the idle watchdog). */
  onActivity?: () => void;
  /** Wraps a tool's run (the watchdog suspends its idle clock there). */
  busy?: <T>(work: Promise<T>) => Promise<T>;
  /** Model calls allowed in one turn. */
  maxSteps?: number;
  /** Stop after this many tool calls (the thinker: exactly one action). */
  maxToolCalls?: number;
}

export type TurnLoopResult = { ok: true; text: string } | { ok: false; error: string; text: string };

interface StepResult {
  text: string;
  calls: Array<{ call: ToolCall; invalid?: string }>;
  error?: string;
}

const RESULT_LIMIT = 8000;

/**
 * The most text one model call may answer: what the agent log shows of a row. A model that runs
 * on past it is stopped there (its stream closed), not left to stream until the watchdog fires.
 */
const ANSWER_TEXT_LIMIT = ROW_TEXT_LIMIT;

/** Tool runs so far in this turn, whichever way the model asked for them. */
interface RunCount {
  runs: number;
}

/**
 * Runs one call unless the turn has used up `maxToolCalls` (the thinker's one action): then it is
 * answered as refused, not run. Counted call by call, since one answer may hold several calls and
 * a provider that runs the robot's tools inside its stream (the platform's agent) asks for them
 * one by one, never as a list the loop could count after the step.
 */
function runCounted(
  input: TurnLoopInput,
  call: ToolCall,
  invalid: string | undefined,
  count: RunCount,
): Promise<ToolResultMessage> {
  const max = input.maxToolCalls;
  const refused = max !== undefined && count.runs >= max ? `this turn may make at most ${max} tool call(s)` : undefined;
  count.runs += 1;
  return runTool(input, call, refused ?? invalid);
}

async function modelStep(input: TurnLoopInput, count: RunCount): Promise<StepResult> {
  const step: StepResult = { text: '', calls: [] };
  const specs = input.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  const stream = input.provider.stream({
    system: input.system,
    messages: input.messages,
    tools: specs,
    signal: input.ctx.signal,
    runTool: (call) => runCounted(input, call, undefined, count),
  });
  for await (const event of stream) {
    input.onActivity?.();
    if (event.type === 'text') {
      step.text += event.text;
      input.sink.text(event.text);
      if (step.text.length > ANSWER_TEXT_LIMIT) {
        const error = `the model's answer ran past ${ANSWER_TEXT_LIMIT} characters`;
        return { ...step, text: step.text.slice(0, ANSWER_TEXT_LIMIT), error };
      }
    } else if (event.type === 'reasoning') input.sink.reasoning(event.text);
    else if (event.type === 'tool_call') {
      if (step.calls.length >= TOOL_CALL_LIMIT) return { ...step, error: tooManyCalls };
      step.calls.push(event.invalid ? { call: event.call, invalid: event.invalid } : { call: event.call });
    }
    else if (event.type === 'remote_tool') {
      if (event.outcome) input.sink.toolEnd(event.call, event.outcome);
      else input.sink.toolStart(event.call);
    }
    else if (event.type === 'error') return { ...step, error: event.error };
    else if (event.type === 'done') return step;
  }
  return { ...step, error: input.ctx.signal.aborted ? abortReason(input.ctx.signal) : 'the model stream ended early' };
}

/** Resolves with the work, or rejects when the signal aborts first (the work is left to finish). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(new Error(abortReason(signal)));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(abortReason(signal)));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function runTool(input: TurnLoopInput, call: ToolCall, invalid: string | undefined): Promise<ToolResultMessage> {
  input.sink.toolStart(call);
  const tool = input.tools.find((t) => t.name === call.name);
  let output: ToolOutput | undefined;
  let error: string | undefined = invalid;
  if (!tool) error = `unknown tool ${call.name} (available: ${input.tools.map((t) => t.name).join(', ')})`;
  if (!error && input.ctx.signal.aborted) error = abortReason(input.ctx.signal);
  if (!error && tool) {
    try {
      const running = untilAborted(
        Promise.resolve().then(() => tool.run(call.input, input.ctx)),
        input.ctx.signal,
      );
      output = await (input.busy ? input.busy(running) : running);
    } catch (caught) {
      error = messageOf(caught);
    }
  }
  if (error !== undefined || !output) {
    const message = error ?? 'the tool returned nothing';
    input.sink.toolEnd(call, { error: message });
    return { id: call.id, name: call.name, content: JSON.stringify({ ok: false, error: message }), isError: true };
  }
  input.sink.toolEnd(call, { result: output });
  const content = JSON.stringify(output);
  const images = output[TOOL_IMAGES];
  return {
    id: call.id,
    name: call.name,
    content: content.length > RESULT_LIMIT ? `${content.slice(0, RESULT_LIMIT - 1)}…` : content,
    isError: false,
    ...(images && images.length > 0 ? { images } : {}),
  };
}

export async function runTurnLoop(input: TurnLoopInput): Promise<TurnLoopResult> {
  const maxSteps = input.maxSteps ?? 8;
  const texts: string[] = [];
  const count: RunCount = { runs: 0 };
  for (let step = 0; step < maxSteps; step += 1) {
    const result = await modelStep(input, count);
    input.sink.stepEnd();
    if (result.text.trim() !== '') texts.push(result.text.trim());
    const text = texts.join('\n');
    if (result.error !== undefined) return { ok: false, error: result.error, text };
    input.messages.push({ role: 'assistant', text: result.text, toolCalls: result.calls.map((c) => c.call) });
    if (result.calls.length === 0) return { ok: true, text };
    const results: ToolResultMessage[] = [];
    for (const { call, invalid } of result.calls) results.push(await runCounted(input, call, invalid, count));
    input.messages.push({ role: 'tool', results });
    if (input.ctx.signal.aborted) return { ok: false, error: abortReason(input.ctx.signal), text };
    if (input.maxToolCalls !== undefined && count.runs >= input.maxToolCalls) return { ok: true, text };
  }
  return {
    ok: false,
    error: `stopped: the model was still calling tools after ${maxSteps} rounds`,
    text: texts.join('\n'),
  };
}
