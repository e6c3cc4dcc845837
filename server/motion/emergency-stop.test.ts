import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StopNotice } from './emergency-stop.ts';
import { heldBack, startHeldMove } from './testing/gated-daemon.ts';
import { startRig, until, type Rig } from './testing/rig.ts';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(() => rig.close());
describe('latched stop', () => {
  it('cancels every running move, even more than the write queue holds at once', async () => {
    for (let i = 0; i < 12; i += 1) await rig.daemon.goto({ head_pose: { yaw: 0.01 * i }, duration: 8 });
    expect(await rig.running()).toHaveLength(12);
    const result = await rig.control.stop('token');
    expect(result).toMatchObject({ latched: true, movesStopped: 12, daemon: { ok: true } });
    expect(await rig.running()).toEqual([]);
    expect(rig.services.get('stop')).toMatchObject({ state: 'running' });
    expect(rig.sim.counters().soundStops).toBeGreaterThan(0);
  });

  it("keeps face tracking paused from the stop to the resume, the moves' holds released or not", async () => {
    rig.control.resume('token');
    const move = await rig.control.arbiter.run({
      label: 'look',
      hold: 'look',
      maxSeconds: 6,
      start: (d) => d.goto({ head_pose: { yaw: 0.2 }, duration: 5 }),
    });
    rig.holds.calls.length = 0;
    await rig.control.stop('token');
    expect(await move.done).toBe('cancelled');
    // Paused before the look's hold goes (the speaker's goes after): tracking never has the head in between.
    expect(rig.holds.calls.slice(0, 2)).toEqual([
      { op: 'latched', name: 'stop' },
      { op: 'release', name: 'look' },
    ]);
    expect(rig.holds.live()).toEqual(['stop']);
    rig.control.resume('token');
    expect(rig.holds.live()).toEqual([]);
  });

  it('pauses personas until resume; demo mode keeps its own pause', async () => {
    const calls: string[] = [];
    rig.control.resume('token');
    rig.control.autonomy.register('thinker', {
      pause: () => void calls.push('pause'),
      resume: () => void calls.push('resume'),
    });
    await rig.control.stop('passkey');
    await rig.control.demo(true, 'passkey');
    expect(rig.control.resume('passkey')).toEqual({ latched: false, wasLatched: true });
    expect(rig.control.autonomy.status().thinker).toEqual({ paused: true, reasons: ['demo'] });
    await rig.control.demo(false, 'passkey');
    expect(calls).toEqual(['pause', 'resume']);
    expect(rig.events.filter((e) => e.action === 'resume').at(-1)).toMatchObject({
      text: 'resumed: motion allowed again',
      credential: 'passkey',
    });
  });

  it('a move whose start is on its way when the stop comes is stopped before the stop answers', async () => {
    rig.control.resume('token');
    // The start is let through only when the stop's other parts are done (the speaker's last
    // call), so a stop that did not wait for it would already have answered.
    const { gate, release } = heldBack();
    let starting = false;
    const order: string[] = [];
    const { setWobbling, stopMove } = rig.daemon;
    rig.daemon.setWobbling = async (on) => {
      await setWobbling.call(rig.daemon, on);
      if (starting) release();
    };
    rig.daemon.stopMove = async (uuid) => {
      await stopMove.call(rig.daemon, uuid);
      order.push('move stopped');
    };
    try {
      const { refused: rejected } = await startHeldMove(rig, gate);
      starting = true;
      const result = await rig.control.stop('token');
      order.push('stop answered');
      expect(result.latched).toBe(true);
      expect(order).toEqual(['move stopped', 'stop answered']);
      expect(await rig.running()).toEqual([]);
      await rejected;
    } finally {
      Object.assign(rig.daemon, { setWobbling, stopMove });
    }
  });

  it('with the daemon gone: moves fail fast with 503, the stop still latches and says so', async () => {
    rig.control.resume('token');
    await rig.sim.close();
    // Unreachable (the connection refused), not a timeout: the move failed without waiting.
    await expect(rig.control.look({ yaw: 5 }, 'token')).rejects.toMatchObject({
      code: 'DAEMON_UNREACHABLE',
      status: 503,
    });
    const result = await rig.control.stop('token');
    expect(result.latched).toBe(true);
    expect(result.daemon.ok).toBe(false);
    expect(result.daemon.error).toMatch(/daemon unreachable/);
    expect(result.stopped).toContain('0 move(s) cancelled, others NOT confirmed stopped');
    expect(rig.control.latch.engaged()).toBe(true);
    await expect(rig.control.look({ yaw: 5 }, 'token')).rejects.toMatchObject({ code: 'STOP_LATCHED', status: 409 });
    await until(() => rig.events.some((e) => e.action === 'stop' && /daemon part failed/.test(e.text)));
  });
});

describe('the stop receipt', () => {
  it('names the app part as "app:" when no app could be read', async () => {
    const own = await startRig({
      stopExtras: {
        app: async () => ({ name: null, stopped: false, error: 'the running app could not be read: timed out' }),
      },
    });
    try {
      const result = await own.control.stop('token');
      expect(result.daemon).toEqual({ ok: false, error: 'app: the running app could not be read: timed out' });
      expect(result.stopped).toContain('app status unknown');
    } finally {
      await own.close();
    }
  });
});

describe('who pressed the stop', () => {
  it('is told to onStop with the result, down to the passkey, and only the kind for other callers', async () => {
    const notices: StopNotice[] = [];
    const own = await startRig({ onStop: (stop) => void notices.push(stop) });
    try {
      const byPhone = await own.control.stop('passkey', 'phone-1');
      own.control.resume('passkey');
      const byToken = await own.control.stop('token');
      expect(notices).toEqual([
        { credential: 'passkey', credentialId: 'phone-1', result: byPhone },
        { credential: 'token', credentialId: undefined, result: byToken },
      ]);
      // The receipt on /ws still names only the kind: the passkey's id stays off the wire.
      const receipts = own.events.filter((e) => e.action === 'stop');
      expect(receipts.map((e) => e.credential)).toEqual(['passkey', 'token']);
      expect(JSON.stringify(receipts)).not.toContain('phone-1');
    } finally {
      await own.close();
    }
  });
});
