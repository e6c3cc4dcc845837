import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentLogRow } from '../../agent/agent-log.ts';
import { startAgentRig, type AgentRig } from '../../agent/testing/agent-rig.ts';
import type { RobotState } from '../../contract/state.ts';
import { until } from '../../motion/testing/rig.ts';
import { createManualClock } from '../../testing/manual-clock.ts';
import { controlRoutes } from './control-routes.ts';
import { agentRoutes } from './agent-routes.ts';
import { eventually } from '../../testing/eventually.ts';

let rig: AgentRig;
/** The turn watchdogs' and the chat wait's time: a busy machine cannot run a budget out, only the test. */
const turnClock = createManualClock();

beforeAll(async () => {
  rig = await startAgentRig({
    routes: (agent, control) => [...agentRoutes(agent), ...controlRoutes({ control })],
    tuning: { ask: { overallMs: 8000, idleMs: 400 }, chatWaitMs: 500, schedule: turnClock.schedule },
  });
  await until(() => rig.robot.feed.snapshot().presence === 'connected' && rig.robot.state() !== undefined);
});

afterAll(async () => {
  await rig.close();
});

const useFakeModel = () =>
  rig.request('PUT', '/api/console/agent/settings', {
    provider: 'openai',
    baseUrl: rig.fake.url,
    model: 'fake-model',
    key: 'sk-test',
  });

beforeEach(async () => {
  await rig.agent.ask.settled();
  if (rig.control.latch.engaged()) rig.control.resume('token');
  rig.fake.setScript((await import('../../agent/providers/testing/fake-script.ts')).defaultScript);
  await useFakeModel();
});

const rows = async (query = ''): Promise<AgentLogRow[]> =>
  (await rig.request('GET', `/api/log${query}`)).json.rows as AgentLogRow[];
const askDone = () =>
  eventually(async () => (await rig.request('GET', '/api/ask/last')).json.running === false, {
    what: 'the turn to end',
  });

describe('model settings routes', () => {
  it('answer 503 "no model configured" on the turn routes until a model is set', async () => {
    expect((await rig.request('PUT', '/api/console/agent/settings', { provider: 'none' })).json).toMatchObject({
      provider: 'none',
    });
    for (const path of ['/api/control/ask', '/api/chat']) {
      const res = await rig.request('POST', path, { prompt: 'hello' });
      expect(res).toEqual({ status: 503, json: { error: 'no model configured', code: 'NOT_CONFIGURED' } });
    }
  });

  it('show hasKey but never the key, and test the connection', async () => {
    const view = await rig.request('GET', '/api/console/agent/settings');
    expect(view.json).toEqual({
      provider: 'openai',
      baseUrl: rig.fake.url,
      model: 'fake-model',
      hasKey: true,
      source: 'dashboard',
      editable: true,
    });
    expect(JSON.stringify(view.json)).not.toContain('sk-test');
    expect((await rig.request('POST', '/api/console/agent/test', {})).json).toEqual({
      ok: true,
      model: 'fake-model',
      latencyMs: expect.any(Number),
    });
    const bad = await rig.request('POST', '/api/console/agent/test', {
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
    });
    expect(bad.json).toMatchObject({ ok: false, error: expect.stringMatching(/cannot reach the model server/) });
    expect((await rig.request('PUT', '/api/console/agent/settings', { provider: 'openai' })).status).toBe(400);
  });
});

describe('Ask', () => {
  it('"look left" produces a look tool call that moves the simulated head', async () => {
    const res = await rig.request('POST', '/api/control/ask', { prompt: 'look left' });
    expect(res).toEqual({ status: 200, json: { ok: true, started: expect.any(Number) } });
    await askDone();
    expect((await rig.request('GET', '/api/ask/last')).json).toMatchObject({
      running: false,
      prompt: 'look left',
      answer: 'Looking.\nDone.',
      error: null,
    });
    await eventually(() => (rig.robot.state() as RobotState).head.yaw > 28, { what: 'the head to turn left' });
    const turn = await rows(`?after=${(res.json.started as number) - 1}`);
    expect(turn.map((r) => r.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(turn[2]!.tool).toMatchObject({
      name: 'look',
      input: { yaw: 30 },
      result: { ok: true, applied: { yaw: 30 } },
    });
    const look = rig.events
      .recent()
      .filter((e) => e.action === 'look')
      .at(-1);
    expect(look).toMatchObject({ credential: 'token', text: expect.stringContaining('look yaw 30°') });
    const streamed = rig.frames.filter((f) => f.type === 'agent_log') as unknown as Array<{ row: AgentLogRow }>;
    expect(streamed.some((f) => f.row.id === res.json.started)).toBe(true);
  });

  it('gives 409 to a second Ask while one runs', async () => {
    rig.fake.setScript(() => ({ kind: 'hang' }));
    expect((await rig.request('POST', '/api/control/ask', { prompt: 'think hard' })).status).toBe(200);
    const second = await rig.request('POST', '/api/control/ask', { prompt: 'and this?' });
    expect(second).toEqual({
      status: 409,
      json: { error: expect.stringMatching(/already running/), code: 'CONFLICT' },
    });
    await until(() => rig.fake.hanging() === 1);
    turnClock.advance(400);
    await askDone();
  });

  it('ends a hung model at the watchdog with an assistant error row', async () => {
    rig.fake.setScript(() => ({ kind: 'hang' }));
    await rig.request('POST', '/api/control/ask', { prompt: 'are you there?' });
    await until(() => rig.fake.hanging() === 1);
    turnClock.advance(400);
    await askDone();
    expect((await rig.request('GET', '/api/ask/last')).json).toMatchObject({
      error: 'no answer from the model for 0.4 s',
    });
    expect((await rows('?n=1'))[0]).toMatchObject({
      role: 'assistant',
      persona: 'dashboard',
      error: true,
      text: 'error: no answer from the model for 0.4 s',
    });
  });

  it('shows a provider error as an error row and a clear {error}', async () => {
    rig.fake.setScript(() => ({ kind: 'http_error', status: 401, message: 'Incorrect API key provided.' }));
    await rig.request('POST', '/api/control/ask', { prompt: 'hello' });
    await askDone();
    expect((await rig.request('GET', '/api/ask/last')).json.error).toBe(
      'the model server answered 401: Incorrect API key provided.',
    );
    expect((await rows('?n=1'))[0]).toMatchObject({
      error: true,
      text: 'error: the model server answered 401: Incorrect API key provided.',
    });
    const chat = await rig.request('POST', '/api/chat', { prompt: 'hello' });
    expect(chat).toMatchObject({
      status: 200,
      json: { ok: false, error: 'the model server answered 401: Incorrect API key provided.' },
    });
  });

  it('ends the turn when the operator latches the stop, and the robot stays still', async () => {
    // The model moves the head, then thinks for a long time: the stop lands in between.
    rig.fake.setScript((r) =>
      r.toolResults.length
        ? { kind: 'hang' }
        : { kind: 'answer', toolCalls: [{ name: 'look', input: { yaw: -20, duration: 3 } }] },
    );
    await rig.request('POST', '/api/control/ask', { prompt: 'look right slowly' });
    await until(() => rig.agent.agentLog.page({ n: 1 })[0]?.role === 'tool' && rig.fake.hanging() === 1);
    expect((await rig.request('POST', '/api/control/stop')).status).toBe(200);
    await askDone();
    expect((await rig.request('GET', '/api/ask/last')).json.error).toBe('stopped by the operator (latched stop)');
    expect(await (await fetch(`${rig.sim.url}/api/move/running`)).json()).toEqual([]);
    await until(() => rig.fake.hanging() === 0);
  });

  it.each([
    ['an empty prompt', { prompt: '' }, 'prompt must not be empty'],
    ['a blank prompt', { prompt: '   ' }, 'prompt must not be empty'],
    ['a 4001-character prompt', { prompt: 'x'.repeat(4001) }, 'prompt must be at most 4000 characters'],
    ['no prompt', {}, 'prompt is required (1-4000 characters)'],
    ['a number', { prompt: 42 }, 'prompt must be a string (1-4000 characters)'],
  ])('refuses %s with 400 on Ask and chat', async (_label, body, error) => {
    for (const path of ['/api/control/ask', '/api/chat']) {
      expect(await rig.request('POST', path, body)).toEqual({ status: 400, json: { error, code: 'BAD_REQUEST' } });
    }
  });

  it('accepts a prompt of exactly 4000 characters', async () => {
    expect((await rig.request('POST', '/api/chat', { prompt: 'y'.repeat(4000) })).json.ok).toBe(true);
  });
});

describe('fleet chat', () => {
  it('answers {ok, result, reply, seconds} as a fleet turn without use_device', async () => {
    const before = rig.fake.requests.length;
    const res = await rig.request('POST', '/api/chat', { text: 'ping' });
    expect(res).toEqual({
      status: 200,
      json: { ok: true, result: 'You said: ping', reply: 'You said: ping', seconds: expect.any(Number) },
    });
    expect(rig.fake.requests[before]?.toolNames).not.toContain('use_device');
    expect(rig.fake.requests[before]?.toolNames).toContain('look');
    await rig.request('POST', '/api/control/ask', { prompt: 'ping' });
    await askDone();
    expect(rig.fake.requests.at(-1)?.toolNames).toContain('use_device');
    expect((await rows('?n=4')).filter((r) => r.role === 'user').map((r) => r.persona)).toEqual(['fleet', 'dashboard']);
  });

  it('gives 504 past its wait', async () => {
    rig.fake.setScript(() => ({ kind: 'hang' }));
    const answer = rig.request('POST', '/api/chat', { prompt: 'slow' });
    await until(() => rig.fake.hanging() === 1);
    turnClock.advance(500);
    expect(await answer).toEqual({
      status: 504,
      json: { error: 'no answer within 0.5 s', code: 'TIMEOUT' },
    });
  });

  it('runs relay invokes through runFleetTurn without use_device', async () => {
    const before = rig.fake.requests.length;
    expect(await rig.agent.runFleetTurn({ prompt: '[fleet depth=1 from phone] look right', depth: 1 })).toEqual({
      text: 'Looking.\nDone.',
    });
    expect(rig.fake.requests[before]?.toolNames).not.toContain('use_device');
  });
});

describe('GET /api/log', () => {
  it('pages with after and n, and carries the recent events', async () => {
    for (const p of ['one', 'two', 'three']) await rig.request('POST', '/api/chat', { prompt: p });
    const all = await rows('?n=300');
    const ids = all.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const pivot = ids[ids.length - 4]!;
    const page = await rows(`?after=${pivot}&n=2`);
    expect(page.map((r) => r.id)).toEqual(ids.filter((id) => id > pivot).slice(0, 2));
    const res = await rig.request('GET', '/api/log?n=5');
    expect(res.json.rows).toHaveLength(5);
    expect(Array.isArray(res.json.events)).toBe(true);
    expect((res.json.events as Array<{ type: string }>).every((e) => e.type === 'event')).toBe(true);
  });

  it.each([
    ['?n=0', 'n must be an integer from 1 to 300'],
    ['?n=301', 'n must be an integer from 1 to 300'],
    ['?n=ten', 'n must be an integer from 1 to 300'],
    ['?after=-1', 'after must be a row id (an integer, 0 or more)'],
    ['?after=1.5', 'after must be a row id (an integer, 0 or more)'],
  ])('refuses %s with a 400 naming the field', async (query, error) => {
    expect(await rig.request('GET', `/api/log${query}`)).toEqual({ status: 400, json: { error, code: 'BAD_REQUEST' } });
  });

  it('keeps the rows across a restart, and the ids keep increasing', async () => {
    await rig.request('POST', '/api/chat', { prompt: 'remember me' });
    const before = await rows('?n=300');
    await rig.reopen();
    const after = await rows('?n=300');
    expect(after.map((r) => [r.id, r.text])).toEqual(before.map((r) => [r.id, r.text]));
    await rig.request('POST', '/api/chat', { prompt: 'after the restart' });
    const newest = (await rows('?n=2'))[0]!;
    expect(newest).toMatchObject({ role: 'user', text: 'after the restart' });
    expect(newest.id).toBeGreaterThan(before.at(-1)!.id);
  });
});
