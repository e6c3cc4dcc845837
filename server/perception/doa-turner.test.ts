import { describe, expect, it } from 'vitest';
import type { ServiceState } from '../contract/state.ts';
import type { FaceTarget, FullState } from '../daemon/wire.ts';
import { silentLog } from '../log.ts';
import type { TurnPlan } from '../contract/perception.ts';
import { createDoaTurner, type DoaDeps } from './doa-turner.ts';
import type { TrackerView } from './tracking.ts';
import { faceAt, fakeClock, flush, NO_FACE } from './testing/fakes.ts';

const rad = (deg: number): number => (deg * Math.PI) / 180;

/** A state frame; `angle` in the daemon's degrees (0 left, 90 front, 180 right). */
function frame(angle: number | null, speech = true, pose: { yaw?: number; pitch?: number; body?: number } = {}) {
  return {
    control_mode: 'enabled',
    head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: rad(pose.pitch ?? 0), yaw: rad(pose.yaw ?? 0) },
    head_joints: null,
    body_yaw: rad(pose.body ?? 0),
    antennas_position: [0, 0],
    timestamp: new Date().toISOString(),
    passive_joints: null,
    doa: angle === null ? null : { angle: rad(angle), speech_detected: speech },
  } as FullState;
}

function fakeTracker() {
  const t = {
    on: true,
    current: { ...NO_FACE } as FaceTarget,
    seenAt: null as number | null,
    holds: [] as string[],
    speaking: false,
  };
  const view: TrackerView = {
    enabled: () => t.on,
    face: () => t.current,
    faceSeenAt: () => t.seenAt,
    liveHolds: () => t.holds,
    isSpeaking: () => t.speaking,
  };
  return { t, view };
}

function rig(overrides: Partial<DoaDeps> = {}) {
  const clock = fakeClock();
  const tracker = fakeTracker();
  const plans: TurnPlan[] = [];
  const motion = { busyWith: null as string | null, refuse: null as Error | null };
  const frames: Array<Record<string, unknown>> = [];
  const services = new Map<string, ServiceState>();
  let listener: ((s: { state: FullState }) => void) | undefined;
  const feed = {
    onSample(l: (s: { state: FullState }) => void) {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
  };
  const turner = createDoaTurner({
    feed,
    tracker: tracker.view,
    motion: {
      busy: () => motion.busyWith,
      async turn(plan) {
        plans.push(plan);
        if (motion.refuse) throw motion.refuse;
      },
    },
    log: silentLog,
    clock,
    broadcast: (f) => frames.push(f),
    services,
    ...overrides,
  });
  turner.start();
  /** Sends frames through the feed, `stepMs` apart (the daemon's DoA runs at 10 Hz). */
  const hear = (count: number, make: () => FullState, stepMs = 100) => {
    for (let i = 0; i < count; i += 1) {
      clock.advance(stepMs);
      listener?.({ state: make() });
    }
  };
  return { clock, tracker: tracker.t, plans, motion, frames, services, turner, hear, feedListening: () => !!listener };
}

describe('turn toward the speaker', () => {
  it('turns the head toward a steady voice 30° to the left when no face is seen', () => {
    const r = rig();
    r.hear(5, () => frame(60));
    expect(r.plans).toEqual([]);
    expect(r.turner.status().why).toBe('listening 5/6');
    r.hear(1, () => frame(60));
    expect(r.plans).toEqual([{ headYaw: 30, bodyYaw: null, pitch: 0 }]);
    expect(r.turner.status()).toMatchObject({ enabled: true, bearing: 30, why: null, turns: 1 });
    expect(r.turner.status().lastTurn).toMatchObject({ bearing: 30, plan: { headYaw: 30 } });
  });

  it('adds the offset to where the head points and lets the body carry past 45°', () => {
    const r = rig();
    r.hear(6, () => frame(50, true, { yaw: 20, pitch: 22, body: 5 }));
    expect(r.plans).toEqual([{ headYaw: 60, bodyYaw: 15, pitch: 15 }]);
  });

  it('counts the daemon 10 Hz readings, not the faster feed frames repeating them', () => {
    const r = rig();
    r.hear(15, () => frame(60), 33);
    expect(r.plans).toEqual([]);
    r.hear(3, () => frame(60), 33);
    expect(r.plans).toHaveLength(1);
  });

  it('does not turn while the face tracker has a fresh face', () => {
    const r = rig();
    r.tracker.current = faceAt(0.1);
    r.tracker.seenAt = r.clock.now() + 500;
    r.hear(6, () => frame(60));
    expect(r.plans).toEqual([]);
    expect(r.turner.status().why).toBe('face tracker has a lock');
    r.tracker.current = { ...NO_FACE, ts: 1 };
    r.hear(16, () => frame(60));
    expect(r.plans).toHaveLength(1);
  });

  it('a stale face of a tracker switched off does not count', () => {
    const r = rig();
    r.tracker.on = false;
    r.tracker.seenAt = r.clock.now();
    r.hear(6, () => frame(60));
    expect(r.plans).toHaveLength(1);
  });

  it('never turns to a rail reading', () => {
    const r = rig();
    r.hear(20, () => frame(1.5));
    r.hear(20, () => frame(179));
    expect(r.plans).toEqual([]);
    expect(r.turner.status().why).toBe('rail reading');
  });

  it('waits at least 3 s between turns', () => {
    const r = rig();
    r.hear(6, () => frame(60));
    r.hear(6, () => frame(130));
    expect(r.plans).toHaveLength(1);
    expect(r.turner.status().why).toBe('rate limit');
    r.hear(18, () => frame(130));
    expect(r.plans).toHaveLength(1);
    r.hear(6, () => frame(130));
    expect(r.plans).toHaveLength(2);
    expect(r.plans[1]?.headYaw).toBe(-40);
  });

  it('the windup guard refuses a second turn the same way while the bearing did not shrink', () => {
    const r = rig();
    r.hear(6, () => frame(60));
    r.hear(30, () => frame(68));
    expect(r.plans).toHaveLength(1);
    expect(r.turner.status()).toMatchObject({ why: 'windup guard', windupRefusals: expect.any(Number) as number });
    expect(r.turner.status().windupRefusals).toBeGreaterThanOrEqual(1);
    r.clock.advance(7000);
    r.hear(6, () => frame(68));
    expect(r.plans).toHaveLength(2);
  });

  it('does not chase its own voice, a hold, a running move, or a lifted robot', () => {
    const cases: Array<[string, (r: ReturnType<typeof rig>) => void]> = [
      ['hearing its own voice', (r) => (r.tracker.speaking = true)],
      ['tracker hold: emotion:sad1', (r) => (r.tracker.holds = ['emotion:sad1'])],
      ['move in flight: look', (r) => (r.motion.busyWith = 'move in flight: look')],
    ];
    for (const [why, setup] of cases) {
      const r = rig();
      setup(r);
      r.hear(10, () => frame(60));
      expect(r.plans).toEqual([]);
      expect(r.turner.status().why).toBe(why);
    }
    const lifted = rig({ lifted: () => true });
    lifted.hear(10, () => frame(60));
    expect(lifted.turner.status().why).toBe('lifted');
  });

  it('switched off, it listens but never turns; on again, it does', () => {
    const r = rig({ enabled: false });
    r.hear(10, () => frame(60));
    expect(r.plans).toEqual([]);
    expect(r.turner.status()).toMatchObject({ enabled: false, why: 'disabled', bearing: 30 });
    expect(r.turner.setEnabled(true).enabled).toBe(true);
    r.hear(6, () => frame(60));
    expect(r.plans).toHaveLength(1);
  });

  it('reports a refused turn', async () => {
    const r = rig();
    r.motion.refuse = new Error('stopped: resume from the dashboard first');
    r.hear(6, () => frame(60));
    await flush();
    expect(r.turner.status().error).toBe('stopped: resume from the dashboard first');
  });

  it('ignores frames without DoA (no mic board, first read after idle)', () => {
    const r = rig();
    r.hear(10, () => frame(null));
    expect(r.turner.status()).toMatchObject({ bearing: null, why: 'no reading yet' });
  });
});

describe('sign cross-check, frames, services', () => {
  it('counts whether the sound side agrees with the tracked face side', () => {
    const r = rig();
    r.tracker.current = faceAt(-0.5);
    r.tracker.seenAt = r.clock.now() + 10_000;
    r.hear(4, () => frame(60));
    r.tracker.current = faceAt(0.5);
    r.hear(2, () => frame(60));
    r.tracker.current = faceAt(0.05);
    r.hear(2, () => frame(60));
    expect(r.turner.status().sign).toEqual({ agree: 4, disagree: 2 });
  });

  it('broadcasts doa frames on (enabled, why, turns, rounded bearing) changes only', () => {
    const r = rig();
    const start = r.frames.length;
    r.hear(4, () => frame(60, false));
    expect(r.frames.length).toBe(start + 1);
    expect(r.frames.at(-1)).toMatchObject({ type: 'doa', why: 'no speech', bearing: 30 });
    r.hear(6, () => frame(60));
    expect(r.frames.at(-1)).toMatchObject({ type: 'doa', turns: 1, why: null });
    r.turner.setEnabled(false);
    expect(r.frames.at(-1)).toMatchObject({ type: 'doa', enabled: false });
  });

  it('keeps a doa service line and stops listening on stop', () => {
    const r = rig();
    expect(r.services.get('doa')?.state).toBe('running');
    r.turner.setEnabled(false);
    expect(r.services.get('doa')).toEqual({ state: 'off', detail: 'turn toward speaker off' });
    r.turner.stop();
    expect(r.feedListening()).toBe(false);
  });

  it('asks the state stream for the DoA rate while it hears speech, and withdraws after 10 s of quiet', () => {
    const asks: Array<[string, number | undefined]> = [];
    const clock = fakeClock();
    const turner = createDoaTurner({
      feed: {
        onSample: () => () => undefined,
        demand: (reason, hz) => asks.push([reason, hz]),
      },
      tracker: fakeTracker().view,
      motion: { busy: () => null, turn: async () => undefined },
      log: silentLog,
      clock,
    });
    const at = (speech: boolean) => {
      clock.advance(200);
      turner.onState(frame(60, speech));
    };
    at(false);
    expect(asks).toEqual([]);
    at(true);
    at(true);
    expect(asks).toEqual([['voice', 10]]);
    // Quiet readings within the hold keep the ask; speech again restarts it.
    for (let i = 0; i < 40; i += 1) at(false);
    at(true);
    for (let i = 0; i < 49; i += 1) at(false);
    expect(asks).toEqual([['voice', 10]]);
    at(false);
    expect(asks).toEqual([
      ['voice', 10],
      ['voice', undefined],
    ]);
    // Off: an ask under way is withdrawn at once, and speech asks for nothing.
    at(true);
    turner.setEnabled(false);
    at(true);
    expect(asks).toEqual([
      ['voice', 10],
      ['voice', undefined],
      ['voice', 10],
      ['voice', undefined],
    ]);
  });

  it('withdraws its ask when the DoA readings stop while it holds one', () => {
    const asks: Array<[string, number | undefined]> = [];
    const clock = fakeClock();
    const turner = createDoaTurner({
      feed: { onSample: () => () => undefined, demand: (reason, hz) => asks.push([reason, hz]) },
      tracker: fakeTracker().view,
      motion: { busy: () => null, turn: async () => undefined },
      log: silentLog,
      clock,
    });
    clock.advance(200);
    turner.onState(frame(60, true));
    expect(asks).toEqual([['voice', 10]]);
    // The daemon's state goes on without a DoA: the ask holds for 10 s, then goes.
    for (let i = 0; i < 49; i += 1) {
      clock.advance(200);
      turner.onState(frame(null));
    }
    expect(asks).toEqual([['voice', 10]]);
    clock.advance(200);
    turner.onState(frame(null));
    expect(asks).toEqual([
      ['voice', 10],
      ['voice', undefined],
    ]);
  });
});
