import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { eventually } from '../testing/eventually.ts';
import { createAgentRuntime } from './agent-runtime.ts';
import { createAskRunner } from './ask.ts';
import { createFleetChat } from './fleet-chat.ts';
import { STOPPED_MESSAGE } from './stop-signal.ts';
import type { ModelProvider, ProviderEvent } from './providers/types.ts';
import { startRuntimeRig, type RuntimeRig } from './testing/runtime-rig.ts';
import { objectSchema, TOOL_IMAGES, type AgentTool } from './tools/types.ts';

const LIMITS = { overallMs: 5000, idleMs: 2000 };
let rig: RuntimeRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('agent runtime', () => {
  it('runs a turn: prompt row, tool row with its result, answer rows', async () => {
    rig = await startRuntimeRig();
    const turn = rig.runtime.start({
      persona: 'dashboard',
      prompt: 'look left',
      fleet: false,
      credential: 'token',
      limits: LIMITS,
    });
    const result = await turn.done;
    expect(result).toMatchObject({ ok: true, text: 'Looking.\nDone.' });
    expect(rig.calls).toEqual([{ name: 'look', input: { yaw: 30 } }]);
    const rows = rig.agentLog.page({ n: 100 });
    expect(rows.map((r) => [r.role, r.text])).toEqual([
      ['user', 'look left'],
      ['assistant', 'Looking.'],
      ['tool', 'look'],
      ['assistant', 'Done.'],
    ]);
    expect(rows[0]!.id).toBe(turn.rowId);
    expect(rows[2]!.tool).toEqual({ name: 'look', input: { yaw: 30 }, result: { ok: true } });
    expect(rows.every((r) => r.persona === 'dashboard' && r.pending === undefined)).toBe(true);
  });

  it('offers use_device to dashboard turns but never to fleet turns', async () => {
    rig = await startRuntimeRig({ fleetTools: ['use_device'] });
    await rig.runtime.start({
      persona: 'dashboard',
      prompt: 'hello',
      fleet: false,
      credential: 'token',
      limits: LIMITS,
    }).done;
    await rig.runtime.start({ persona: 'fleet', prompt: 'hello', fleet: true, credential: 'system', limits: LIMITS })
      .done;
    expect(rig.fake.requests[0]?.toolNames).toContain('use_device');
    expect(rig.fake.requests[1]?.toolNames).toEqual(['look', 'snapshot', 'say']);
  });

  it('answers a call to a tool it did not offer with an error result', async () => {
    rig = await startRuntimeRig({
      script: (r) =>
        r.toolResults.length > 0
          ? { kind: 'answer', text: r.toolResults[0]!.content }
          : { kind: 'answer', toolCalls: [{ name: 'use_device', input: { action: 'list' } }] },
    });
    const result = await rig.runtime.start({
      persona: 'fleet',
      prompt: 'list devices',
      fleet: true,
      credential: 'system',
      limits: LIMITS,
    }).done;
    expect(result.text).toMatch(/unknown tool use_device/);
    expect(rig.calls).toEqual([]);
  });

  it('shows a provider error as an assistant error row, never a crash', async () => {
    rig = await startRuntimeRig({
      script: () => ({ kind: 'http_error', status: 500, message: 'the GPU caught fire' }),
    });
    const result = await rig.runtime.start({
      persona: 'dashboard',
      prompt: 'hi',
      fleet: false,
      credential: 'token',
      limits: LIMITS,
    }).done;
    expect(result).toMatchObject({ ok: false, error: 'the model server answered 500: the GPU caught fire' });
    expect(rig.agentLog.page({ n: 1 })[0]).toMatchObject({
      role: 'assistant',
      error: true,
      text: 'error: the model server answered 500: the GPU caught fire',
    });
  });

  it('aborts a hung model with the idle watchdog', async () => {
    rig = await startRuntimeRig({ script: () => ({ kind: 'hang' }) });
    const r = rig;
    const turn = r.runtime.start({
      persona: 'dashboard',
      prompt: 'hi',
      fleet: false,
      credential: 'token',
      limits: { overallMs: 5000, idleMs: 200 },
    });
    await eventually(() => r.fake.hanging() === 1);
    r.clock.advance(200);
    const result = await turn.done;
    expect(result.error).toBe('no answer from the model for 0.2 s');
    await eventually(() => rig?.fake.hanging() === 0, { what: 'rig?.fake.hanging() to be 0' });
  });

  it('does not count a slow tool as model silence, but does count it against the overall budget', async () => {
    rig = await startRuntimeRig();
    const r = rig;
    // The tool takes 400 ms of watchdog time, past the model's 250 ms of allowed silence.
    let release = r.holdTools();
    const slow = r.runtime.start({
      persona: 'dashboard',
      prompt: 'look left',
      fleet: false,
      credential: 'token',
      limits: { overallMs: 5000, idleMs: 250 },
    });
    await eventually(() => r.calls.length === 1);
    r.clock.advance(400);
    release();
    expect((await slow.done).ok).toBe(true);
    release = r.holdTools();
    const overrun = r.runtime.start({
      persona: 'dashboard',
      prompt: 'look left',
      fleet: false,
      credential: 'token',
      limits: { overallMs: 300, idleMs: 250 },
    });
    await eventually(() => r.calls.length === 2);
    r.clock.advance(300);
    release();
    expect((await overrun.done).error).toBe('the turn took longer than 0.3 s');
    expect(rig.agentLog.page({ n: 2 }).map((r) => r.tool?.error ?? r.text)).toEqual([
      'the turn took longer than 0.3 s',
      'error: the turn took longer than 0.3 s',
    ]);
  });

  it('cancels a pending tool call when the stop latches and ends the turn', async () => {
    rig = await startRuntimeRig();
    // The tool never answers: the turn ends only because the stop cancelled the call.
    rig.holdTools();
    const turn = rig.runtime.start({
      persona: 'dashboard',
      prompt: 'look left',
      fleet: false,
      credential: 'token',
      limits: LIMITS,
    });
    await eventually(() => rig?.calls.length === 1);
    rig.latch.engage();
    const result = await turn.done;
    expect(result.error).toBe(STOPPED_MESSAGE);
    expect(rig.fake.requests).toHaveLength(1);
  });

  it('refuses before writing anything when no model is configured', async () => {
    rig = await startRuntimeRig();
    rig.setModel(undefined);
    expect(() =>
      rig!.runtime.start({ persona: 'dashboard', prompt: 'hi', fleet: false, credential: 'token', limits: LIMITS }),
    ).toThrow(/no model configured/);
    expect(rig.agentLog.page({ n: 10 })).toEqual([]);
  });

  it('keeps its running turns in the set it is given, where the latched stop counts them', async () => {
    rig = await startRuntimeRig();
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const provider: ModelProvider = {
      kind: 'openai',
      model: 'scripted',
      async *stream(): AsyncGenerator<ProviderEvent> {
        await held;
        yield { type: 'text', text: 'Done.' };
        yield { type: 'done', stopReason: 'end_turn' };
      },
    };
    const running = new Set<AbortController>();
    const runtime = createAgentRuntime({
      model: { provider: () => provider },
      tools: [],
      agentLog: rig.agentLog,
      latch: { engaged: () => false },
      log: silentLog,
      running,
    });
    const turn = runtime.start({
      persona: 'dashboard',
      prompt: 'wait',
      fleet: false,
      credential: 'token',
      limits: LIMITS,
    });
    expect([running.size, runtime.runningTurns()]).toEqual([1, 1]);
    answer();
    expect(await turn.done).toMatchObject({ ok: true, text: 'Done.' });
    expect([running.size, runtime.runningTurns()]).toEqual([0, 0]);
  });
});

describe('ask runner', () => {
  it('runs one turn at a time: a second Ask while one runs is a 409', async () => {
    rig = await startRuntimeRig({ script: () => ({ kind: 'hang' }) });
    const r = rig;
    const ask = createAskRunner({ runtime: r.runtime, limits: { overallMs: 5000, idleMs: 300 } });
    const first = ask.ask('hello', 'token');
    expect(first).toEqual({ ok: true, started: expect.any(Number) });
    expect(ask.last()).toMatchObject({ running: true, prompt: 'hello', answer: null });
    expect(() => ask.ask('again', 'token')).toThrow(expect.objectContaining({ status: 409, code: 'CONFLICT' }));
    await eventually(() => r.fake.hanging() === 1);
    r.clock.advance(300);
    await ask.settled();
    expect(ask.last()).toMatchObject({
      running: false,
      error: 'no answer from the model for 0.3 s',
      finishedAt: expect.any(String),
    });
    rig.fake.setScript(() => ({ kind: 'answer', text: 'hi there' }));
    ask.ask('hello again', 'token');
    await ask.settled();
    expect(ask.last()).toMatchObject({ running: false, prompt: 'hello again', answer: 'hi there', error: null });
  });
});

describe('fleet chat', () => {
  it('answers {ok, result, reply, seconds}', async () => {
    rig = await startRuntimeRig();
    const chat = createFleetChat({ runtime: rig.runtime });
    expect(await chat.chat('ping', 'token')).toEqual({
      ok: true,
      result: 'You said: ping',
      reply: 'You said: ping',
      seconds: expect.any(Number),
    });
  });

  it('gives a 504 past its wait and aborts the turn', async () => {
    rig = await startRuntimeRig({ script: () => ({ kind: 'hang' }) });
    const chat = createFleetChat({ runtime: rig.runtime, waitMs: 300 });
    await expect(chat.chat('ping', 'token')).rejects.toMatchObject({
      status: 504,
      code: 'TIMEOUT',
      message: 'no answer within 0.3 s',
    });
    await expect
      .poll(() => rig?.agentLog.page({ n: 1 })[0]?.text)
      .toBe('error: the chat wait ran out: no answer within 0.3 s');
  });

  it('runs relay invokes as fleet turns and rejects with the reason on failure', async () => {
    rig = await startRuntimeRig({ fleetTools: ['use_device'] });
    const chat = createFleetChat({ runtime: rig.runtime });
    expect(await chat.runFleetTurn({ prompt: '[fleet depth=1 from phone] look left', depth: 1 })).toEqual({
      text: 'Looking.\nDone.',
    });
    expect(rig.fake.requests[0]?.toolNames).not.toContain('use_device');
    rig.fake.setScript(() => ({ kind: 'stream_error', message: 'overloaded' }));
    await expect(chat.runFleetTurn({ prompt: 'hi', depth: 1 })).rejects.toThrow('overloaded');
  });

  it('hands a fleet turn the pictures its tools took, so the relay reply can carry them', async () => {
    rig = await startRuntimeRig();
    const snapshot: AgentTool = {
      name: 'snapshot',
      description: 'take a picture',
      inputSchema: objectSchema({}),
      run: () => Promise.resolve({ ok: true, [TOOL_IMAGES]: [{ mediaType: 'image/jpeg', base64: 'AQID' }] }),
    };
    let step = 0;
    const provider: ModelProvider = {
      kind: 'openai',
      model: 'scripted',
      async *stream(): AsyncGenerator<ProviderEvent> {
        step += 1;
        if (step === 1) yield { type: 'tool_call', call: { id: 'c1', name: 'snapshot', input: {} } };
        else yield { type: 'text', text: 'Here is the room.' };
        yield { type: 'done', stopReason: step === 1 ? 'tool_use' : 'end_turn' };
      },
    };
    const runtime = createAgentRuntime({
      model: { provider: () => provider },
      tools: [snapshot],
      agentLog: rig.agentLog,
      latch: { engaged: () => false },
      log: silentLog,
    });
    const answer = await createFleetChat({ runtime }).runFleetTurn({ prompt: 'show me', depth: 1 });
    expect(answer).toEqual({
      text: 'Here is the room.',
      images: [{ data: new Uint8Array([1, 2, 3]), contentType: 'image/jpeg' }],
    });
  });
});
