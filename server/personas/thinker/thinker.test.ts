import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RobotState, ServiceState } from '../../contract/state.ts';
import type { EventFrame } from '../../contract/ws.ts';
import { silentLog } from '../../log.ts';
import { createAutonomyRegistry } from '../../motion/autonomy.ts';
import type { MoveLibrary } from '../../contract/motion.ts';
import { groupMoves } from '../../motion/move-library.ts';
import { EMOTIONS_DATASET, EMOTION_NAMES } from '../../sim/library-names.ts';
import { makeTempDir } from '../../store/testing/temp-dir.ts';
import { createAgentLog, type AgentLog } from '../../agent/agent-log.ts';
import { createOpenAiProvider } from '../../agent/providers/openai-compatible.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../agent/providers/testing/fake-openai.ts';
import type { ModelProvider } from '../../agent/providers/types.ts';
import { GENTLE, GENTLE_EMOTIONS } from './thinker-actions.ts';
import { createThinker, type Thinker } from './thinker.ts';

type Call = [string, unknown];

function awakeState(over: Partial<RobotState> = {}): RobotState {
  return {
    timestamp: new Date().toISOString(),
    ageMs: 0,
    head: { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 },
    bodyYaw: 0,
    antennas: { right: -10, left: 10 },
    motorMode: 'enabled',
    loopHz: null,
    upstreamHz: 30,
    daemon: {
      presence: 'connected',
      state: 'running',
      version: '1.10',
      robotName: 'sim',
      simulated: true,
      physics: 'mockup',
    },
    system: { uptime: 1, rssMb: 1, load: 0 },
    services: {},
    ...over,
  };
}

interface Setup {
  thinker: Thinker;
  calls: Call[];
  autonomy: ReturnType<typeof createAutonomyRegistry>;
  services: Map<string, ServiceState>;
  agentLog: AgentLog;
  world: { state: RobotState; moveRunning: boolean; events: EventFrame[] };
}

let dir: { dir: string; cleanup: () => Promise<void> };
let setup: Setup | undefined;
let fake: FakeOpenAi | undefined;

beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  setup?.thinker.stop();
  vi.useRealTimers();
  await setup?.agentLog.flush();
  await fake?.close();
  fake = undefined;
  setup = undefined;
  await dir.cleanup();
});

/** `model`: the configured provider, or a function answering the current one (settings that change). */
async function build(
  model?: ModelProvider | (() => ModelProvider),
  intervalSeconds = 30,
  now?: () => number,
  library: () => Promise<MoveLibrary> = async () =>
    groupMoves([{ dataset: EMOTIONS_DATASET, names: [...EMOTION_NAMES] }]),
): Promise<Setup> {
  const calls: Call[] = [];
  const autonomy = createAutonomyRegistry(silentLog);
  const services = new Map<string, ServiceState>();
  const world = { state: awakeState(), moveRunning: false, events: [] as EventFrame[] };
  const agentLog = createAgentLog({ file: join(dir.dir, 'log.jsonl'), broadcast: () => undefined, log: silentLog });
  await agentLog.load();
  const control = {
    express: async (name: string) => (calls.push(['express', name]), { uuid: 'u', name, dataset: EMOTIONS_DATASET }),
    antennas: async (input: { right: number; left: number }) => (
      calls.push(['antennas', input]),
      { uuid: 'u', applied: input, clamped: {} }
    ),
    look: async (input: Record<string, unknown>) => (
      calls.push(['look', input]),
      { uuid: 'u', applied: { duration: 1, ...input }, clamped: {} }
    ),
    autonomy,
    arbiter: { current: () => (world.moveRunning ? { uuid: 'm', label: 'look' } : undefined) },
    latch: { engaged: () => false },
  };
  const thinker = createThinker({
    control,
    moves: { get: library },
    state: () => world.state,
    services,
    recentEvents: () => world.events,
    agentLog,
    model: model
      ? { configured: () => true, provider: typeof model === 'function' ? model : () => model }
      : {
          configured: () => false,
          provider: () => {
            throw new Error('no model configured');
          },
        },
    intervalSeconds,
    log: silentLog,
    random: () => 0.3,
    ...(now ? { now } : {}),
  });
  setup = { thinker, calls, autonomy, services, agentLog, world };
  return setup;
}

const journal = (s: Setup) => s.agentLog.page({ n: 100 });

describe('thinker on its schedule (rules, no model)', () => {
  it('acts once per cycle, first after min(interval, 15) s, rotating emotion → antennas → look → body', async () => {
    vi.useFakeTimers();
    const s = await build();
    s.thinker.start();
    expect(s.services.get('thinker')).toMatchObject({
      state: 'running',
      detail: 'first cycle in 15 s, then every 30 s',
    });
    await vi.advanceTimersByTimeAsync(14_900);
    expect(s.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0]![0]).toBe('express');
    expect(GENTLE_EMOTIONS).toContain(s.calls[0]![1]);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(s.calls.map((c) => c[0])).toEqual(['express', 'antennas', 'look', 'look']);
    const [, antennas, look, body] = s.calls.map((c) => c[1] as Record<string, number>);
    expect(Math.abs(antennas!.right!)).toBeLessThanOrEqual(GENTLE.antenna);
    expect(Math.abs(look!.yaw!)).toBeLessThanOrEqual(GENTLE.yaw);
    expect(look!.body_yaw).toBeUndefined();
    expect(Math.abs(body!.body_yaw!)).toBeLessThanOrEqual(GENTLE.body);
    expect(body!.yaw).toBeUndefined();
    const rows = journal(s);
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.persona === 'thinker' && r.role === 'assistant')).toBe(true);
    expect(rows[1]).toMatchObject({ text: expect.stringMatching(/wiggled my antennas/), tool: { name: 'antennas' } });
    expect(s.services.get('thinker')?.detail).toMatch(/^last: I turned my body/);
  });

  it('uses a short interval as its first delay too', async () => {
    vi.useFakeTimers();
    const s = await build(undefined, 8);
    s.thinker.start();
    await vi.advanceTimersByTimeAsync(8_100);
    expect(s.calls).toHaveLength(1);
  });

  it('does nothing in demo mode and resumes after it', async () => {
    vi.useFakeTimers();
    const s = await build();
    s.thinker.start();
    await s.autonomy.pauseAll('demo');
    expect(s.services.get('thinker')).toEqual({ state: 'paused', detail: 'paused by demo mode' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.calls).toEqual([]);
    expect(journal(s)).toEqual([]);
    await s.autonomy.resumeAll('demo');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(s.calls).toHaveLength(1);
  });

  it('makes no gesture when demo mode comes while the move library is still being read', async () => {
    let readLibrary: (() => void) | undefined;
    const library = () =>
      new Promise<MoveLibrary>((resolve) => {
        readLibrary = () => resolve(groupMoves([{ dataset: EMOTIONS_DATASET, names: [...EMOTION_NAMES] }]));
      });
    const s = await build(undefined, 30, undefined, library);
    s.thinker.start();
    const cycle = s.thinker.cycle();
    expect(readLibrary).toBeDefined();
    await s.autonomy.pauseAll('demo');
    readLibrary!();
    expect(await cycle).toMatchObject({ acted: true, kind: 'emotion' });
    expect(journal(s).at(-1)?.tool).toMatchObject({ name: 'express', error: expect.stringMatching(/demo mode/) });
    // The next cycle after demo mode acts: the one before had sent nothing.
    await s.autonomy.resumeAll('demo');
    expect(await s.thinker.cycle()).toMatchObject({ acted: true, kind: 'antennas' });
    expect(s.calls.map((c) => c[0])).toEqual(['antennas']);
  });

  it('holds still while the robot sleeps, a move runs or the operator was just active', async () => {
    vi.useFakeTimers();
    const s = await build();
    s.thinker.start();
    s.world.state = awakeState({ motorMode: 'disabled' });
    await vi.advanceTimersByTimeAsync(15_100);
    expect(s.services.get('thinker')).toEqual({ state: 'paused', detail: 'the robot is asleep (motors off)' });
    s.world.state = awakeState({ antennas: { right: -174.8, left: 174.8 } });
    expect(await s.thinker.cycle()).toEqual({ acted: false, reason: 'the robot is asleep (sleep pose)' });
    s.world.state = awakeState();
    s.world.moveRunning = true;
    expect(await s.thinker.cycle()).toEqual({ acted: false, reason: 'a move is running' });
    s.world.moveRunning = false;
    const receipt = (
      credential: EventFrame['credential'],
      agoMs: number,
      values?: Record<string, unknown>,
    ): EventFrame => ({
      type: 'event',
      id: 1,
      time: new Date(Date.now() - agoMs).toISOString(),
      action: values ? 'joystick' : 'look',
      text: '',
      credential,
      ...(values ? { values } : {}),
    });
    s.world.events = [receipt('passkey', 5_000)];
    expect(await s.thinker.cycle()).toEqual({ acted: false, reason: 'the operator was active in the last 10 s' });
    s.world.events = [receipt('passkey', 30_000, { streaming: true })];
    expect(await s.thinker.cycle()).toMatchObject({ acted: false, reason: 'an operator is driving the head' });
    s.world.events = [receipt('system', 1_000), receipt('token', 12_000)];
    expect(await s.thinker.cycle()).toMatchObject({ acted: true, kind: 'emotion' });
    expect(s.calls).toHaveLength(1);
  });
});

describe('thinker with a model', () => {
  it("lets the model choose the one action with only that cycle's tool", async () => {
    fake = await startFakeOpenAi({
      script: (r) => ({
        kind: 'answer',
        text: 'I feel curious about the room.',
        toolCalls: [{ name: r.toolNames[0]!, input: { name: 'curious1' } }],
      }),
    });
    const s = await build(createOpenAiProvider({ baseUrl: fake.url, model: 'fake' }));
    s.thinker.start();
    expect(await s.thinker.cycle()).toMatchObject({ acted: true, kind: 'emotion' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.toolNames).toEqual(['express']);
    expect(s.calls).toEqual([['express', 'curious1']]);
    expect(journal(s)).toEqual([
      expect.objectContaining({
        persona: 'thinker',
        text: 'I feel curious about the room.',
        tool: expect.objectContaining({ name: 'express', input: { name: 'curious1' } }),
      }),
    ]);
  });

  it('makes one gesture when the model answers with several calls, and journals the one it made', async () => {
    fake = await startFakeOpenAi({
      script: (r) => ({
        kind: 'answer',
        text: 'Curious, then cheerful, then calm.',
        toolCalls: ['curious1', 'cheerful1', 'calming1'].map((name) => ({ name: r.toolNames[0]!, input: { name } })),
      }),
    });
    const s = await build(createOpenAiProvider({ baseUrl: fake.url, model: 'fake' }));
    s.thinker.start();
    expect(await s.thinker.cycle()).toMatchObject({ acted: true, kind: 'emotion' });
    expect(s.calls).toEqual([['express', 'curious1']]);
    expect(journal(s)).toEqual([
      expect.objectContaining({
        tool: expect.objectContaining({ name: 'express', input: { name: 'curious1' }, result: expect.anything() }),
      }),
    ]);
  });

  it("clamps the model's look to the gentle range, and falls back to the rules when the model fails", async () => {
    const inputs: Record<string, unknown> = { express: { name: 'attentive1' }, antennas: { right: 170, left: -170 } };
    fake = await startFakeOpenAi({
      script: (r) => ({ kind: 'answer', toolCalls: [{ name: r.toolNames[0]!, input: inputs[r.toolNames[0]!] }] }),
    });
    const s = await build(createOpenAiProvider({ baseUrl: fake.url, model: 'fake' }));
    s.thinker.start();
    await s.thinker.cycle();
    await s.thinker.cycle();
    expect(s.calls[1]).toEqual(['antennas', { right: GENTLE.antenna, left: -GENTLE.antenna }]);
    fake.setScript(() => ({ kind: 'http_error', status: 503, message: 'model is loading' }));
    expect(await s.thinker.cycle()).toMatchObject({ acted: true, kind: 'look' });
    expect(s.calls[2]?.[0]).toBe('look');
    expect(journal(s).at(-1)?.text).toMatch(
      /\(the model failed: the model server answered 503: model is loading; the rules chose\)$/,
    );
  });

  it('rests a failing model: the rules act alone for 1, then 2 min, and the model is asked again after', async () => {
    let clock = 1_000_000;
    fake = await startFakeOpenAi({ script: () => ({ kind: 'http_error', status: 503, message: 'down' }) });
    const s = await build(createOpenAiProvider({ baseUrl: fake.url, model: 'fake' }), 30, () => clock);
    s.thinker.start();
    const asked = () => fake!.requests.length;

    expect(await s.thinker.cycle()).toMatchObject({ acted: true });
    expect(asked()).toBe(1);
    clock += 30_000;
    expect(await s.thinker.cycle()).toMatchObject({ acted: true });
    expect(asked()).toBe(1);
    expect(journal(s).at(-1)?.text).toMatch(
      /\(the model failed 1 time in a row and is asked again in 30 s; the rules chose\)$/,
    );
    clock += 30_000;
    await s.thinker.cycle();
    expect(asked()).toBe(2);
    // A second failure in a row: two minutes.
    clock += 119_000;
    await s.thinker.cycle();
    expect(asked()).toBe(2);
    clock += 1_000;
    fake.setScript((r) => ({ kind: 'answer', toolCalls: [{ name: r.toolNames[0]!, input: {} }] }));
    await s.thinker.cycle();
    expect(asked()).toBe(3);
    // An answer ends the rest: the next cycle asks at once.
    await s.thinker.cycle();
    expect(asked()).toBe(4);
  });

  it('asks a rested model again at once when its settings change', async () => {
    const clock = 1_000_000;
    fake = await startFakeOpenAi({ script: () => ({ kind: 'http_error', status: 503, message: 'down' }) });
    let provider = createOpenAiProvider({ baseUrl: fake.url, model: 'fake' });
    const s = await build(
      () => provider,
      30,
      () => clock,
    );
    s.thinker.start();
    await s.thinker.cycle();
    await s.thinker.cycle();
    expect(fake.requests).toHaveLength(1);
    // Saved settings build a new provider (model-settings.ts): the rest was the old one's.
    provider = createOpenAiProvider({ baseUrl: fake.url, model: 'fake-2' });
    await s.thinker.cycle();
    expect(fake.requests).toHaveLength(2);
  });

  it('rests a model that hangs past the watchdog like one that fails', async () => {
    vi.useFakeTimers();
    let asked = 0;
    const hung: ModelProvider = {
      kind: 'openai',
      model: 'hung',
      async *stream(request) {
        asked += 1;
        await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
        yield { type: 'error', error: 'aborted' };
      },
    };
    const clock = 1_000_000;
    const s = await build(hung, 30, () => clock);
    s.thinker.start();
    const first = s.thinker.cycle();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await first).toMatchObject({ acted: true });
    expect(asked).toBe(1);
    expect(await s.thinker.cycle()).toMatchObject({ acted: true });
    expect(asked).toBe(1);
    expect(journal(s).at(-1)?.text).toMatch(/asked again in 60 s; the rules chose\)$/);
  });
});
