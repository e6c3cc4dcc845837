import { describe, expect, it } from 'vitest';
import type { RobotState } from '../../contract/state.ts';
import { AppError } from '../../errors.ts';
import { groupMoves } from '../../motion/move-library.ts';
import { EMOTIONS_DATASET } from '../../sim/library-names.ts';
import { createRobotTools, type RobotToolDeps } from './robot-tools.ts';
import { TOOL_IMAGES, type AgentTool, type ToolContext } from './types.ts';

const ctx: ToolContext = {
  signal: new AbortController().signal,
  fleet: false,
  persona: 'dashboard',
  credential: 'token',
};

function tools(over: Partial<RobotToolDeps> = {}) {
  const calls: Array<[string, unknown, string]> = [];
  const record =
    (name: string, answer: (input: unknown) => unknown) => async (input: unknown, credential?: unknown) => {
      calls.push([name, input, String(credential ?? input)]);
      return answer(input);
    };
  const control = {
    look: record('look', (i) => ({ uuid: 'u', applied: i, clamped: {} })),
    antennas: record('antennas', (i) => ({ uuid: 'u', applied: i, clamped: {} })),
    express: async (name: string) => {
      if (name !== 'curious1') throw new AppError('MOVE_UNKNOWN', `no move named "${name}" in the library`);
      return { uuid: 'u', name, dataset: EMOTIONS_DATASET };
    },
    sleep: record('sleep', () => ({ uuid: 'u' })),
    wake: record('wake', () => ({ uuid: 'u' })),
    say: record('say', () => ({ engine: 'espeak-ng', seconds: 1.2 })),
    volume: (level: number) => ({ level, pending: true }),
  } as unknown as RobotToolDeps['control'];
  const list = createRobotTools({
    control,
    moves: { get: async () => groupMoves([{ dataset: EMOTIONS_DATASET, names: ['curious1', 'sleep1', 'yes1'] }]) },
    state: () => undefined,
    snapshot: async () => undefined,
    ...over,
  });
  const byName = (name: string) => list.find((t) => t.name === name) as AgentTool;
  return { list, byName, calls };
}

describe('robot tools', () => {
  it('are the ten robot tools, each with a JSON-schema object input', () => {
    const { list } = tools();
    expect(list.map((t) => t.name)).toEqual([
      'look',
      'express',
      'antennas',
      'say',
      'snapshot',
      'get_state',
      'tracking',
      'volume',
      'sleep',
      'wake',
    ]);
    for (const t of list) expect(t.inputSchema).toMatchObject({ type: 'object', properties: expect.any(Object) });
  });

  it('go through Control with the caller credential, validated like the control routes', async () => {
    const { byName, calls } = tools();
    expect(await byName('look').run({ yaw: 30 }, ctx)).toEqual({ ok: true, applied: { yaw: 30 }, clamped: {} });
    expect(calls[0]).toEqual(['look', { yaw: 30 }, 'token']);
    await expect(byName('look').run({ yew: 30 }, ctx)).rejects.toThrow('unknown field yew');
    await expect(byName('antennas').run({ right: 10 }, ctx)).rejects.toThrow('left is required');
    await expect(byName('volume').run({ level: 101 }, ctx)).rejects.toThrow('level must be an integer 0-100');
    expect(await byName('say').run({ text: 'hello' }, ctx)).toEqual({ ok: true, engine: 'espeak-ng', seconds: 1.2 });
  });

  it('answer an unknown move with the conversational moves available', async () => {
    const { byName } = tools();
    await expect(byName('express').run({ name: 'moonwalk' }, ctx)).rejects.toThrow(
      'no move named "moonwalk" in the library; available: curious1, yes1',
    );
  });

  it('hand the camera frame to the model as an image, not as text', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const { byName } = tools({ snapshot: async () => jpeg });
    const out = await byName('snapshot').run({}, ctx);
    expect(out[TOOL_IMAGES]).toEqual([{ mediaType: 'image/jpeg', base64: jpeg.toString('base64') }]);
    expect(JSON.parse(JSON.stringify(out))).toEqual({ ok: true, format: 'jpeg', bytes: 7 });
    await expect(tools().byName('snapshot').run({}, ctx)).rejects.toThrow('the camera has no frame yet');
  });

  it('read the state and switch tracking when they are available', async () => {
    const state = {
      head: { x: 0, y: 0, z: 0, roll: 0, pitch: -5.04, yaw: 29.96 },
      bodyYaw: 0,
      antennas: { right: -10, left: 10 },
      motorMode: 'enabled',
      services: { thinker: { state: 'running' } },
    } as unknown as RobotState;
    const switched: boolean[] = [];
    const { byName } = tools({ state: () => state, tracking: { setEnabled: (on) => void switched.push(on) } });
    expect(await byName('get_state').run({}, ctx)).toMatchObject({
      head: { yaw: 30, pitch: -5 },
      motor_mode: 'enabled',
      services: { thinker: 'running' },
    });
    expect(await byName('tracking').run({ enabled: false }, ctx)).toEqual({ ok: true, enabled: false });
    expect(switched).toEqual([false]);
    await expect(tools().byName('tracking').run({ enabled: true }, ctx)).rejects.toThrow('not available');
    await expect(tools().byName('get_state').run({}, ctx)).rejects.toThrow('no robot state yet');
  });
});
