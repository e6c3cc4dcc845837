/**
 * A relayed invoke that outlasts the requester's wait: answered "still working" with its task
 * ticket after 25 s (on the client's clock), then finished through POST /api/devices/task-result,
 * which the owner redeems with the ticket; an overrun after the note ends up there as an error.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FleetTurnResult } from './envelopes.ts';
import { taskIdOf, taskTicket } from './relay-task.ts';
import { repliesIn, startHarness, type Harness } from './test/client-harness.ts';

let h: Harness;
afterEach(() => h?.close());

async function queue(prompt: string): Promise<string> {
  const out = await h.owned('POST', '/api/devices/relay', {
    toDevice: h.device.deviceId,
    payload: JSON.stringify({ type: 'invoke', prompt }),
  });
  return out.body.id as string;
}

/** A runner whose turns finish when the test says so. */
function heldRunner() {
  const finish: Array<(result: FleetTurnResult) => void> = [];
  const signals: AbortSignal[] = [];
  return {
    finish,
    signals,
    runner: (turn: { signal?: AbortSignal }) =>
      new Promise<FleetTurnResult>((resolve) => {
        if (turn.signal) signals.push(turn.signal);
        finish.push(resolve);
      }),
  };
}

describe('a fleet turn that outlasts the wait', () => {
  it('is answered "still working" with its ticket at 25 s, and its answer is redeemable as a task result', async () => {
    const held = heldRunner();
    h = await startHarness({ runner: held.runner });
    const id = await queue('survey the room');
    await h.client.start();
    await h.sched.advance(0);
    await vi.waitFor(() => expect(held.finish).toHaveLength(1));
    await h.sched.advance(24_999);
    const ticket = taskTicket(h.device.deviceId, taskIdOf(id)!);
    expect(repliesIn(h.emu)).toEqual([]);
    await h.sched.advance(1);
    await vi.waitFor(() => expect(repliesIn(h.emu)).toHaveLength(1));
    expect(repliesIn(h.emu)[0]).toMatchObject({ inReplyTo: id, payload: { result: expect.stringContaining(ticket) } });
    expect(h.emu.requests.some((r) => r.path === '/api/devices/task-result')).toBe(false);

    held.finish[0]!({ text: 'two chairs and a lamp' });
    await vi.waitFor(() => expect(h.emu.requests.some((r) => r.path === '/api/devices/task-result')).toBe(true));
    const redeemed = await h.owned('GET', `/api/devices/relay?inReplyTo=${ticket}`);
    expect(JSON.parse((redeemed.body.reply as { payload: string }).payload)).toMatchObject({
      taskId: taskIdOf(id),
      summary: 'survey the room',
      result: 'two chairs and a lamp',
    });
    // Still one PATCH for the envelope: the answer did not also go out as a late reply.
    expect(repliesIn(h.emu)).toHaveLength(1);
  });

  it('posts the overrun as the task result and aborts the turn', async () => {
    const held = heldRunner();
    h = await startHarness({ runner: held.runner });
    const id = await queue('count every book');
    await h.client.start();
    await h.sched.advance(0);
    await vi.waitFor(() => expect(held.finish).toHaveLength(1));
    await h.sched.advance(25_000);
    await vi.waitFor(() => expect(repliesIn(h.emu)).toHaveLength(1));
    await h.sched.advance(65_000);
    const ticket = taskTicket(h.device.deviceId, taskIdOf(id)!);
    await vi.waitFor(async () => {
      const redeemed = await h.owned('GET', `/api/devices/relay?inReplyTo=${ticket}`);
      expect(redeemed.body.reply).not.toBeNull();
    });
    const redeemed = await h.owned('GET', `/api/devices/relay?inReplyTo=${ticket}`);
    expect(JSON.parse((redeemed.body.reply as { payload: string }).payload)).toMatchObject({
      result: 'Error: the turn took longer than 90 s',
    });
    expect(held.signals[0]?.aborted).toBe(true);
  });

  it('keeps a turn that ends inside the window an ordinary reply', async () => {
    const held = heldRunner();
    h = await startHarness({ runner: held.runner });
    const id = await queue('quick one');
    await h.client.start();
    await h.sched.advance(0);
    await vi.waitFor(() => expect(held.finish).toHaveLength(1));
    await h.sched.advance(24_000);
    held.finish[0]!({ text: 'done' });
    await vi.waitFor(() => expect(repliesIn(h.emu)).toHaveLength(1));
    expect(repliesIn(h.emu)[0]).toMatchObject({ inReplyTo: id, payload: { result: 'done' } });
    // Counted once its reply is sent: the handler is done, and the 25 s note never comes.
    await vi.waitFor(() => expect(h.client.status().envelopesHandled).toBe(1));
    await h.sched.advance(60_000);
    expect(repliesIn(h.emu)).toHaveLength(1);
    expect(h.emu.requests.some((r) => r.path === '/api/devices/task-result')).toBe(false);
  });
});

describe('task tickets', () => {
  it('are scoped by the first 8 hex digits of the device id and take the envelope id as task id', () => {
    expect(taskTicket('3f2c9a1e-77aa-4b1c-9d00-000000000000', 'abc')).toBe('task_3f2c9a1e_abc');
    expect(taskIdOf('6b8569a9-dfb2-4e06-9085-75de6abe02ae')).toBe('6b8569a9-dfb2-4e06-9085-75de6abe02ae');
    expect(taskIdOf('a.b/c')).toBe('abc');
    expect(taskIdOf('...')).toBeNull();
  });
});
