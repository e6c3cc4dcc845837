/**
 * Test rig for the agent runtime without a robot: a fake OpenAI-compatible model server, an
 * agent log in a temp folder, recording tools the test can hold, a latch the test can engage,
 * and the turn watchdog on a manual clock, so a busy machine never times a turn out.
 */
import { join } from 'node:path';
import { silentLog } from '../../log.ts';
import { createManualClock, type ManualClock } from '../../testing/manual-clock.ts';
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
  /** Holds every tool call from now until `release()`: a tool the robot is still busy with. */
  holdTools(): () => void;
  /** The turn watchdog's time: it moves only when the test advances it. */
  clock: ManualClock;
  /** Undefined model: provider() answers 503 like an unconfigured cockpit. */
  setModel(provider: ModelProvider | undefined): void;
  close(): Promise<void>;
}

/**
 * A tool that records its input and answers ok, once `hold()` (when it gives a promise) settles;
 * a call aborted meanwhile fails when it answers.
 */
export function recordingTool(
  name: string,
  calls: ToolCallRecord[],
  hold: () => Promise<void> | undefined = () => undefined,
): AgentTool {
  return {
    name,
    description: `test tool ${name}`,
    inputSchema: objectSchema({ yaw: { type: 'number' } }),
    async run(input, ctx) {
      calls.push({ name, input });
      await hold();
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
  let held: Promise<void> | undefined;
  const rig: RuntimeRig = {
    fake,
    agentLog,
    frames,
    calls,
    holdTools() {
      let release = () => {};
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    clock: createManualClock(),
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
  const hold = () => held;
  const tools = ['look', 'snapshot', 'say'].map((n) => recordingTool(n, calls, hold));
  rig.runtime = createAgentRuntime({
    model: {
      provider() {
        if (!model) throw Object.assign(new Error('no model configured'), { status: 503 });
        return model;
      },
    },
    tools,
    fleetTools: () => (options.fleetTools ?? []).map((n) => recordingTool(n, calls, hold)),
    agentLog,
    latch: rig.latch,
    log: silentLog,
    schedule: rig.clock.schedule,
  });
  return rig;
}
