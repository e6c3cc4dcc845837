/**
 * Test rig for the agent runtime without a robot: a fake OpenAI-compatible model server, an
 * agent log in a temp folder, recording tools and a latch the test can engage.
 */
import { join } from 'node:path';
import { silentLog } from '../../log.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createAgentLog, type AgentLog, type AgentLogFrame } from '../agent-log.ts';
import { createAgentRuntime, type AgentRuntime } from '../agent-runtime.ts';
import { createOpenAiProvider } from '../providers/openai-compatible.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../providers/testing/fake-openai.ts';
import type { Script } from '../providers/testing/fake-script.ts';
import type { ModelProvider } from '../providers/types.ts';
import { objectSchema, type AgentTool } from '../tools/types.ts';

export interface ToolCallRecord {
  name: string;
  input: unknown;
}

export interface RuntimeRig {
  fake: FakeOpenAi;
  agentLog: AgentLog;
  frames: AgentLogFrame[];
  runtime: AgentRuntime;
  calls: ToolCallRecord[];
  latch: { engaged(): boolean; engage(): void };
  /** When set, tools wait this long before answering. */
  toolDelayMs: number;
  /** Undefined model: provider() answers 503 like an unconfigured cockpit. */
  setModel(provider: ModelProvider | undefined): void;
  close(): Promise<void>;
}

/** A tool that records its input and answers ok after `delay()` ms (honouring the signal). */
export function recordingTool(name: string, calls: ToolCallRecord[], delay: () => number): AgentTool {
  return {
    name,
    description: `test tool ${name}`,
    inputSchema: objectSchema({ yaw: { type: 'number' } }),
    async run(input, ctx) {
      calls.push({ name, input });
      await new Promise((resolve) => setTimeout(resolve, delay()));
      if (ctx.signal.aborted) throw new Error('aborted');
      return { ok: true };
    },
  };
}

export async function startRuntimeRig(options: { script?: Script; fleetTools?: string[] } = {}): Promise<RuntimeRig> {
  const dir = await makeTempDir();
  const fake = await startFakeOpenAi(options.script ? { script: options.script } : {});
  const frames: AgentLogFrame[] = [];
  const agentLog = createAgentLog({
    file: join(dir.dir, 'agent-log.jsonl'),
    broadcast: (f) => frames.push(f),
    log: silentLog,
  });
  await agentLog.load();
  const calls: ToolCallRecord[] = [];
  let engaged = false;
  let model: ModelProvider | undefined = createOpenAiProvider({ baseUrl: fake.url, model: 'fake-model' });
  const rig: RuntimeRig = {
    fake,
    agentLog,
    frames,
    calls,
    toolDelayMs: 0,
    latch: { engaged: () => engaged, engage: () => void (engaged = true) },
    runtime: undefined as unknown as AgentRuntime,
    setModel: (p) => void (model = p),
    async close() {
      rig.runtime.abortAll(new Error('test over'));
      await agentLog.flush();
      await fake.close();
      await dir.cleanup();
    },
  };
  const delay = () => rig.toolDelayMs;
  const tools = ['look', 'snapshot', 'say'].map((n) => recordingTool(n, calls, delay));
  rig.runtime = createAgentRuntime({
    model: {
      provider() {
        if (!model) throw Object.assign(new Error('no model configured'), { status: 503 });
        return model;
      },
    },
    tools,
    fleetTools: () => (options.fleetTools ?? []).map((n) => recordingTool(n, calls, delay)),
    agentLog,
    latch: rig.latch,
    log: silentLog,
  });
  return rig;
}
