import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimerClock } from '../clock.ts';
import { silentLog } from '../log.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import { makeTempDir } from '../store/testing/temp-dir.ts';
import { createAgentLog, type AgentLogFrame } from './agent-log.ts';

let dir: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.cleanup());

async function open(frames: AgentLogFrame[] = [], maxRows?: number, clock?: TimerClock) {
  const log = createAgentLog({
    ...(clock ? { clock } : {}),
    file: join(dir.dir, 'agent-log.jsonl'),
    broadcast: (f) => frames.push(f),
    log: silentLog,
    ...(maxRows ? { maxRows } : {}),
  });
  await log.load();
  return log;
}

describe('agent log', () => {
  it('streams a row under one id: created, updated at most ~20 Hz, then final', async () => {
    const frames: AgentLogFrame[] = [];
    const clock = createManualClock();
    const log = await open(frames, undefined, clock);
    const row = log.add({ role: 'assistant', persona: 'dashboard', text: '' });
    for (let i = 0; i < 50; i += 1) row.append('x');
    expect(frames).toHaveLength(1);
    // 50 ms after the first frame, the 50 appends go out as one update.
    clock.advance(80);
    expect(frames).toHaveLength(2);
    expect(frames[1]?.row).toMatchObject({ text: 'x'.repeat(50), pending: true });
    // Within 50 ms of that one, the next append waits; the final frame goes out at once instead.
    row.append('!');
    expect(frames).toHaveLength(2);
    row.finish();
    expect(clock.pending()).toBe(0);
    expect(frames.every((f) => f.type === 'agent_log' && f.row.id === row.id)).toBe(true);
    expect(frames).toHaveLength(3);
    expect(frames[0]?.row).toMatchObject({ text: '', pending: true });
    expect(frames.at(-1)?.row).toEqual(expect.objectContaining({ text: `${'x'.repeat(50)}!`, role: 'assistant' }));
    expect(frames.at(-1)?.row.pending).toBeUndefined();
  });

  it('pages: the newest n, or the first n after a row id', async () => {
    const log = await open();
    for (let i = 1; i <= 10; i += 1) log.add({ role: 'user', persona: 'dashboard', text: `m${i}` }).finish();
    expect(log.page({ n: 3 }).map((r) => r.text)).toEqual(['m8', 'm9', 'm10']);
    expect(log.page({ n: 3, after: 4 }).map((r) => r.id)).toEqual([5, 6, 7]);
    expect(log.page({ n: 100, after: 9 }).map((r) => r.text)).toEqual(['m10']);
    expect(log.page({ n: 100, after: 10 })).toEqual([]);
  });

  it('keeps finished rows across a restart and continues the ids', async () => {
    const first = await open();
    first.add({ role: 'user', persona: 'dashboard', text: 'look left' }).finish();
    const tool = first.add({
      role: 'tool',
      persona: 'dashboard',
      text: 'look',
      tool: { name: 'look', input: { yaw: 30 } },
    });
    tool.finish({ tool: { name: 'look', input: { yaw: 30 }, result: { ok: true } } });
    await first.flush();

    const second = await open();
    const rows = second.page({ n: 100 });
    expect(rows).toEqual([
      expect.objectContaining({ id: 1, role: 'user', text: 'look left', persona: 'dashboard' }),
      expect.objectContaining({
        id: 2,
        role: 'tool',
        tool: { name: 'look', input: { yaw: 30 }, result: { ok: true } },
      }),
    ]);
    expect(second.add({ role: 'assistant', persona: 'thinker', text: 'hi' }).id).toBe(3);
  });

  it('stays bounded and caps runaway text and tool results', async () => {
    const log = await open([], 5);
    for (let i = 0; i < 12; i += 1) log.add({ role: 'user', persona: 'p', text: 'y'.repeat(30_000) }).finish();
    const big = log.add({
      role: 'tool',
      persona: 'p',
      text: '',
      tool: { name: 't', input: {}, result: 'z'.repeat(9000) },
    });
    big.finish();
    await log.flush();
    const rows = log.page({ n: 300 });
    expect(rows).toHaveLength(5);
    expect(rows[0]!.text.length).toBeLessThanOrEqual(20_000);
    expect(String(rows.at(-1)!.tool!.result).length).toBeLessThanOrEqual(4000);
    expect((await open([], 5)).page({ n: 300 }).map((r) => r.id)).toEqual([9, 10, 11, 12, 13]);
  });
});
