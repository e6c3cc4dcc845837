/**
 * The latched stop ends the agent's running turns itself, at once: a turn does not go on to move
 * the robot because the operator resumed before the turn's own look at the latch came round.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { startRig, type Rig } from '../motion/testing/rig.ts';
import { createAgentRuntime } from './agent-runtime.ts';
import { abortTurns, STOPPED_MESSAGE } from './stop-signal.ts';
import type { ModelProvider, ProviderEvent } from './providers/types.ts';
import { startRuntimeRig, type RuntimeRig, type ToolCallRecord, recordingTool } from './testing/runtime-rig.ts';

let rig: Rig | undefined;
let agent: RuntimeRig | undefined;
afterEach(async () => {
  await agent?.close();
  await rig?.close();
  rig = undefined;
  agent = undefined;
});

describe('the latched stop and a running turn', () => {
  it('aborts the turn even when the operator resumes before the turn looks at the latch', async () => {
    const running = new Set<AbortController>();
    rig = await startRig({ stopExtras: { abortTurns: () => abortTurns(running) } });
    agent = await startRuntimeRig();
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    // The model is thinking when the stop comes; afterwards it asks for a look.
    const provider: ModelProvider = {
      kind: 'openai',
      model: 'scripted',
      async *stream(request): AsyncGenerator<ProviderEvent> {
        if (request.messages.length > 1) {
          yield { type: 'done', stopReason: 'end_turn' };
          return;
        }
        await held;
        yield { type: 'tool_call', call: { id: 'c1', name: 'look', input: { yaw: 30 } } };
        yield { type: 'done', stopReason: 'tool_calls' };
      },
    };
    const calls: ToolCallRecord[] = [];
    const control = rig.control;
    const runtime = createAgentRuntime({
      model: { provider: () => provider },
      tools: [recordingTool('look', calls)],
      agentLog: agent.agentLog,
      latch: control.latch,
      log: silentLog,
      running,
    });
    const turn = runtime.start({
      persona: 'dashboard',
      prompt: 'look left',
      fleet: false,
      credential: 'token',
      limits: { overallMs: 60_000, idleMs: 20_000 },
    });
    // Stop and resume with no timer between them: the turn's latch watch never sees the latch.
    const stopped = control.stop('token');
    control.resume('token');
    const receipt = await stopped;
    answer();
    expect(await turn.done).toMatchObject({ ok: false, error: STOPPED_MESSAGE });
    expect(calls).toEqual([]);
    expect(receipt.stopped).toContain('1 agent turn(s) cancelled');
  });
});
