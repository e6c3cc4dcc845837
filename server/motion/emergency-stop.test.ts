import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { createManualClock } from '../testing/manual-clock.ts';
import type { StopNotice } from './emergency-stop.ts';
import { startRig, until, type Rig } from './testing/rig.ts';

/** A daemon answer the test holds back until it calls `release`. */
function heldBack(): { gate: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

/** Notes every move the cockpit asks the daemon to stop, then stops it. */
function recordStops(own: Rig, stops: string[]): void {
  const { stopMove } = own.daemon;
  own.daemon.stopMove = async (uuid) => {
    stops.push(uuid);
    await stopMove.call(own.daemon, uuid);
  };
}

/** A goto the stalled daemon did not answer in time (http-transport.ts): it may still carry it out. */
const STALLED_GOTO = new AppError(
  'DAEMON_TIMEOUT',
  'daemon did not answer POST /api/move/goto within 2000 ms; it may still carry it out when it does',
);

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
      const move = rig.control.arbiter.run({
        label: 'a late start',
        maxSeconds: 5,
        start: async (d) => {
          starting = true;
          await gate;
          return d.goto({ head_pose: { yaw: 0.2 }, duration: 4 });
        },
      });
      const rejected = expect(move).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => starting);
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

describe('a move the daemon starts while the stop is latched', () => {
  it('is cancelled: a goto that timed out on a stalled daemon runs when the daemon wakes, after the stop', async () => {
    // The simulator's clock never moves: a move ends only when someone cancels it.
    const own = await startRig({}, createManualClock());
    const { stopMove } = own.daemon;
    const stops: string[] = [];
    recordStops(own, stops);
    try {
      expect(await own.control.stop('token')).toMatchObject({ latched: true, movesStopped: 0 });
      // What the stalled daemon does once it runs again: it plays the goto whose answer the cockpit
      // gave up waiting for before the stop listed what ran.
      const late = await own.daemon.goto({ head_pose: { yaw: 0.4 }, duration: 3 });
      await until(async () => (await own.running()).length === 0);
      expect(stops).toEqual([late]);

      own.control.resume('token');
      const allowed = await own.daemon.goto({ head_pose: { yaw: -0.4 }, duration: 3 });
      // Its start event has been handled once the arbiter lists it; no stop was asked for it.
      await until(() => own.control.arbiter.running().includes(allowed));
      expect(stops).toEqual([late]);
      expect(await own.running()).toEqual([allowed]);
    } finally {
      own.daemon.stopMove = stopMove;
      await own.close();
    }
  });

  it('is cancelled after the resume too when it was asked for before a stop', async () => {
    const own = await startRig({}, createManualClock());
    const { goto, stopMove } = own.daemon;
    const stops: string[] = [];
    const { gate, release } = heldBack();
    let late: Promise<string> | undefined;
    // The stalled daemon: the cockpit gives up waiting for the goto, and the daemon carries it out
    // once the test lets it run again.
    own.daemon.goto = (req) => {
      late = gate.then(() => goto.call(own.daemon, req));
      return Promise.reject(STALLED_GOTO);
    };
    recordStops(own, stops);
    try {
      await expect(own.control.look({ yaw: 20, duration: 3 }, 'token')).rejects.toMatchObject({
        code: 'DAEMON_TIMEOUT',
      });
      own.daemon.goto = goto;
      expect(await own.control.stop('token')).toMatchObject({ latched: true, movesStopped: 0 });
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      // A look asked for after the resume plays, whether its start event comes before its answer or after.
      const fresh = await own.control.look({ yaw: -20, duration: 3 }, 'token');
      release();
      const played = (await late) ?? '';
      await until(async () => !(await own.running()).includes(played));
      expect(stops).toEqual([played]);

      // That start is accounted for: a move started afterwards by someone else is left alone.
      const other = await own.daemon.goto({ head_pose: { yaw: -0.4 }, duration: 3 });
      await until(() => own.control.arbiter.running().includes(other));
      expect(stops).toEqual([played]);
      expect((await own.running()).sort()).toEqual([fresh.uuid, other].sort());
    } finally {
      Object.assign(own.daemon, { goto, stopMove });
      await own.close();
    }
  });

  it('plays when no stop came since it was asked for, and a stop after it then cancels no later move', async () => {
    const own = await startRig({}, createManualClock());
    const { goto, stopMove } = own.daemon;
    const stops: string[] = [];
    const { gate, release } = heldBack();
    let late: Promise<string> | undefined;
    own.daemon.goto = (req) => {
      late = gate.then(() => goto.call(own.daemon, req));
      return Promise.reject(STALLED_GOTO);
    };
    recordStops(own, stops);
    try {
      await expect(own.control.look({ yaw: 20, duration: 3 }, 'token')).rejects.toMatchObject({
        code: 'DAEMON_TIMEOUT',
      });
      own.daemon.goto = goto;
      release();
      const played = (await late) ?? '';
      await until(() => own.control.arbiter.running().includes(played));
      // The stop cancels it as it cancels any running move; the resume lets motion be asked for again.
      expect(await own.control.stop('token')).toMatchObject({ latched: true, movesStopped: 1 });
      own.control.resume('token');
      stops.length = 0;
      // A move someone else starts now is no late start of the look: it is left alone. The next
      // one is heard after the first was judged.
      const other = await own.daemon.goto({ head_pose: { yaw: -0.4 }, duration: 3 });
      const next = await own.daemon.goto({ head_pose: { pitch: 0.1 }, duration: 3 });
      await until(() => own.control.arbiter.running().includes(next));
      expect(stops).toEqual([]);
      expect((await own.running()).sort()).toEqual([other, next].sort());
    } finally {
      Object.assign(own.daemon, { goto, stopMove });
      await own.close();
    }
  });
});

describe('a move asked for before the stop', () => {
  it('is not sent when the stop lands while the move before it is being cancelled', async () => {
    // The simulator's clock never moves: the first move runs until someone cancels it.
    const own = await startRig({}, createManualClock());
    const { goto, stopMove } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    let holdNextStop = false;
    own.daemon.goto = async (req) => {
      calls.push('goto');
      return goto.call(own.daemon, req);
    };
    own.daemon.stopMove = async (uuid) => {
      if (holdNextStop) {
        holdNextStop = false;
        calls.push('cancel asked');
        await gate;
      }
      await stopMove.call(own.daemon, uuid);
    };
    try {
      await own.control.arbiter.run({
        label: 'first',
        maxSeconds: 5,
        start: (d) => d.goto({ head_pose: { yaw: 0.3 }, duration: 4 }),
      });
      calls.length = 0;
      holdNextStop = true;
      const second = own.control.arbiter.run({
        label: 'second',
        maxSeconds: 5,
        start: (d) => d.goto({ head_pose: { yaw: -0.3 }, duration: 4 }),
      });
      const refused = expect(second).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.includes('cancel asked'));
      const stopped = own.control.stop('token');
      release();
      expect(await stopped).toMatchObject({ latched: true, daemon: { ok: true } });
      await refused;
      expect(calls).toEqual(['cancel asked']);
      expect(await own.running()).toEqual([]);
    } finally {
      Object.assign(own.daemon, { goto, stopMove });
      await own.close();
    }
  });

  it('does not play when the resume comes before its start was answered', async () => {
    const own = await startRig({}, createManualClock());
    const { gate, release } = heldBack();
    let starting = false;
    try {
      const move = own.control.arbiter.run({
        label: 'a late start',
        maxSeconds: 5,
        start: async (d) => {
          starting = true;
          await gate;
          return d.goto({ head_pose: { yaw: 0.2 }, duration: 4 });
        },
      });
      const refused = expect(move).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => starting);
      // The stop waits for the start on its way; the operator resumes before it has answered.
      const stopped = own.control.stop('token');
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      release();
      await stopped;
      await refused;
      expect(await own.running()).toEqual([]);
      // Motion asked for after the resume plays as usual.
      const next = await own.control.arbiter.run({
        label: 'after the resume',
        maxSeconds: 5,
        start: (d) => d.goto({ head_pose: { yaw: -0.2 }, duration: 4 }),
      });
      expect(await own.running()).toEqual([next.uuid]);
    } finally {
      await own.close();
    }
  });

  it('wake sends no wake-up move when the stop lands while the motors are being enabled', async () => {
    const own = await startRig({}, createManualClock());
    const { setMotorMode, wakeUp } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    own.daemon.setMotorMode = async (mode) => {
      calls.push(`motors ${mode}`);
      await gate;
      await setMotorMode.call(own.daemon, mode);
    };
    own.daemon.wakeUp = async () => {
      calls.push('wake_up');
      return wakeUp.call(own.daemon);
    };
    try {
      const woke = own.control.wake('token');
      const refused = expect(woke).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.length > 0);
      const stopped = own.control.stop('token');
      release();
      expect(await stopped).toMatchObject({ latched: true, daemon: { ok: true } });
      await refused;
      expect(calls).toEqual(['motors enabled']);
      expect(await own.running()).toEqual([]);
    } finally {
      Object.assign(own.daemon, { setMotorMode, wakeUp });
      await own.close();
    }
  });

  it('a look still reading the app lock when a stop and its resume came is not played', async () => {
    const own = await startRig({}, createManualClock());
    const { appLockStatus, goto } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    own.daemon.appLockStatus = async () => {
      calls.push('lock read');
      await gate;
      return appLockStatus.call(own.daemon);
    };
    own.daemon.goto = async (req) => {
      calls.push('goto');
      return goto.call(own.daemon, req);
    };
    try {
      const look = own.control.look({ yaw: 20, duration: 5 }, 'token');
      const refused = expect(look).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.includes('lock read'));
      expect(await own.control.stop('token')).toMatchObject({ latched: true });
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      release();
      await refused;
      expect(calls).toEqual(['lock read']);
      expect(await own.running()).toEqual([]);
    } finally {
      Object.assign(own.daemon, { appLockStatus, goto });
      await own.close();
    }
  });

  it('an express whose move library read a stop and its resume overtook is not played', async () => {
    const own = await startRig({}, createManualClock());
    const { find } = own.moves;
    const { playMove } = own.daemon;
    const calls: string[] = [];
    const { gate, release } = heldBack();
    own.moves.find = async (name) => {
      calls.push('library read');
      await gate;
      return find.call(own.moves, name);
    };
    own.daemon.playMove = async (dataset, name) => {
      calls.push('play');
      return playMove.call(own.daemon, dataset, name);
    };
    try {
      const express = own.control.express('welcoming1', 'token');
      const refused = expect(express).rejects.toMatchObject({ code: 'STOP_LATCHED' });
      await until(() => calls.includes('library read'));
      expect(await own.control.stop('token')).toMatchObject({ latched: true });
      expect(own.control.resume('token')).toEqual({ latched: false, wasLatched: true });
      release();
      await refused;
      expect(calls).toEqual(['library read']);
      expect(await own.running()).toEqual([]);
    } finally {
      own.moves.find = find;
      own.daemon.playMove = playMove;
      await own.close();
    }
  });
});
