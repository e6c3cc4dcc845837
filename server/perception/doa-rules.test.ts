import { describe, expect, it } from 'vitest';
import {
  DOA_RULES,
  EMPTY_MEMORY,
  isWindup,
  judge,
  offsetOf,
  onRail,
  planTurn,
  signVote,
  streakAgrees,
  type Memory,
  type Surroundings,
  type Verdict,
} from './doa-rules.ts';

const T0 = 1_000_000;
const rad = (deg: number): number => (deg * Math.PI) / 180;
const free: Surroundings = { enabled: true, ownVoice: false, faceFresh: false, holds: [], lifted: false, busy: null };

/** Judges readings (daemon degrees) 100 ms apart, as the daemon's 10 Hz DoA gives them. */
function hear(
  angles: number[],
  opts: {
    memory?: Memory;
    world?: Partial<Surroundings>;
    at?: number;
    step?: number;
    speech?: boolean;
    sign?: 1 | -1;
  } = {},
): { memory: Memory; verdicts: Verdict[]; last: Verdict } {
  let memory = opts.memory ?? EMPTY_MEMORY;
  const verdicts: Verdict[] = [];
  angles.forEach((a, i) => {
    const reading = { angle: rad(a), speech: opts.speech ?? true, at: (opts.at ?? T0) + i * (opts.step ?? 100) };
    const out = judge(memory, reading, { ...free, ...opts.world }, opts.sign ?? 1);
    memory = out.memory;
    verdicts.push(out.verdict);
  });
  return { memory, verdicts, last: verdicts.at(-1) as Verdict };
}

const six = (a: number): number[] => Array.from({ length: 6 }, () => a);

describe("DoA numbers are the documented ones (docs/contract.md, 'DoA turn-toward-speaker')", () => {
  it('keeps every threshold', () => {
    expect(DOA_RULES).toMatchObject({
      railDeg: 3,
      speakTailMs: 1500,
      streak: 6,
      tolDeg: 12,
      gapMs: 1000,
      faceFreshMs: 1500,
      minIntervalMs: 3000,
      minOffsetDeg: 10,
      windupMs: 10_000,
      windupRatio: 0.6,
      headMaxDeg: 45,
      bodyMaxDeg: 60,
      pitchMinDeg: -20,
      pitchMaxDeg: 15,
      turnSeconds: 0.7,
    });
  });

  it('offset = sign × (90° − angle): 0 = left, 90 = front, 180 = right', () => {
    expect(offsetOf(0)).toBe(90);
    expect(offsetOf(90)).toBe(0);
    expect(offsetOf(180)).toBe(-90);
    expect(offsetOf(60, -1)).toBe(-30);
  });
});

describe('a turn when every rule holds', () => {
  it('six agreeing readings 30° to the left turn +30°', () => {
    const { verdicts, memory } = hear(six(60));
    expect(verdicts.slice(0, 5).map((v) => (v as { why: string }).why)).toEqual([
      'listening 1/6',
      'listening 2/6',
      'listening 3/6',
      'listening 4/6',
      'listening 5/6',
    ]);
    expect(verdicts[5]).toEqual({ action: 'turn', offset: 30, angleDeg: 60 });
    expect(memory.streak).toEqual([]);
    expect(memory.lastTurn).toEqual({ at: T0 + 500, offset: 30 });
  });

  it('turns on the streak mean, to the right too', () => {
    const { last } = hear([130, 134, 126, 130, 132, 128]);
    expect(last.action).toBe('turn');
    expect((last as { offset: number }).offset).toBeCloseTo(-40, 6);
  });

  it('a calibrated sign of −1 flips the direction', () => {
    expect(hear(six(60), { sign: -1 }).last).toMatchObject({ action: 'turn', offset: -30 });
  });
});

describe('each rule alone stops the turn', () => {
  it('disabled: nothing is collected', () => {
    const { last, memory } = hear(six(60), { world: { enabled: false } });
    expect(last).toEqual({ action: 'wait', why: 'disabled' });
    expect(memory.streak).toEqual([]);
  });

  it('no speech detected resets the streak', () => {
    const started = hear(six(60).slice(0, 5));
    const { last, memory } = hear([60], { memory: started.memory, at: T0 + 500, speech: false });
    expect(last).toEqual({ action: 'wait', why: 'no speech' });
    expect(memory.streak).toEqual([]);
  });

  it.each([0, 2, 3, 177, 178.5, 180])('a reading of %s° is on the rails and resets the streak', (a) => {
    const started = hear(six(60).slice(0, 5));
    const { last, memory } = hear([a], { memory: started.memory, at: T0 + 500 });
    expect(last).toEqual({ action: 'wait', why: 'rail reading' });
    expect(memory.streak).toEqual([]);
  });

  it('3.5° and 176.5° are not rails', () => {
    expect(onRail(3.5)).toBe(false);
    expect(onRail(176.5)).toBe(false);
    expect(hear(six(3.5)).last.action).toBe('turn');
  });

  it('its own voice (speaking hold or its 1.5 s tail) resets the streak', () => {
    const { last, memory } = hear(six(60), { world: { ownVoice: true } });
    expect(last).toEqual({ action: 'wait', why: 'hearing its own voice' });
    expect(memory.streak).toEqual([]);
  });

  it('a gap over 1 s between readings restarts the count; exactly 1 s does not', () => {
    const started = hear(six(60).slice(0, 5));
    expect(hear([60], { memory: started.memory, at: T0 + 400 + 1001 }).last).toEqual({
      action: 'wait',
      why: 'listening 1/6',
    });
    expect(hear([60], { memory: started.memory, at: T0 + 400 + 1000 }).last.action).toBe('turn');
  });

  it('readings that disagree by more than ±12° of their mean are a moving sound', () => {
    expect(hear([60, 60, 60, 60, 60, 90]).last).toEqual({ action: 'wait', why: 'sound is moving' });
    expect(hear([50, 70, 50, 70, 50, 70]).last.action).toBe('turn');
    expect(streakAgrees([48, 72, 48, 72, 48, 72])).toBe(true);
    expect(streakAgrees([47, 73, 47, 73, 47, 73])).toBe(false);
    expect(streakAgrees([60, 60, 60, 60, 60])).toBe(false);
  });

  it('a face seen under 1.5 s ago means the tracker has the head', () => {
    expect(hear(six(60), { world: { faceFresh: true } }).last).toEqual({
      action: 'wait',
      why: 'face tracker has a lock',
    });
  });

  it('any live hold', () => {
    expect(hear(six(60), { world: { holds: ['emotion:cheerful1', 'look'] } }).last).toEqual({
      action: 'wait',
      why: 'tracker hold: emotion:cheerful1, look',
    });
  });

  it('lifted', () => {
    expect(hear(six(60), { world: { lifted: true } }).last).toEqual({ action: 'wait', why: 'lifted' });
  });

  it('a move running', () => {
    expect(hear(six(60), { world: { busy: 'move in flight: look' } }).last).toEqual({
      action: 'wait',
      why: 'move in flight: look',
    });
  });

  it('under 3 s since the last turn; at 3 s it may turn again', () => {
    // The sixth reading comes 500 ms after the first.
    const memory: Memory = { ...EMPTY_MEMORY, lastTurn: { at: T0 - 2499, offset: -30 } };
    expect(hear(six(60), { memory }).last).toEqual({ action: 'wait', why: 'rate limit' });
    const later: Memory = { ...EMPTY_MEMORY, lastTurn: { at: T0 - 2500, offset: -30 } };
    expect(hear(six(60), { memory: later }).last.action).toBe('turn');
  });

  it('an offset under 10° is already facing; 10° turns', () => {
    expect(hear(six(82)).last).toEqual({ action: 'wait', why: 'already facing (+8°)' });
    expect(hear(six(97)).last).toEqual({ action: 'wait', why: 'already facing (-7°)' });
    expect(hear(six(80)).last).toMatchObject({ action: 'turn', offset: 10 });
  });

  it('blocked readings keep the streak: the turn comes as soon as the block lifts', () => {
    const blocked = hear(six(60), { world: { busy: 'reel running' } });
    expect(blocked.memory.streak).toHaveLength(6);
    expect(hear([60], { memory: blocked.memory, at: T0 + 600 }).last.action).toBe('turn');
  });
});

describe('windup guard', () => {
  const recent = (offset: number, agoMs = 4000): Memory => ({
    ...EMPTY_MEMORY,
    lastTurn: { at: T0 - agoMs, offset },
  });

  it('refuses a second turn the same way within 10 s when the bearing did not shrink below 0.6', () => {
    const { last, memory } = hear(six(70), { memory: recent(30) });
    expect(last).toEqual({ action: 'refuse', why: 'windup guard', offset: 20 });
    expect(memory.streak).toEqual([]);
    expect(memory.lastTurn).toEqual({ at: T0 - 4000, offset: 30 });
  });

  it('allows it once the bearing shrank below 0.6 of the last offset', () => {
    expect(hear(six(73), { memory: recent(30) }).last).toMatchObject({ action: 'turn', offset: 17 });
  });

  it('allows the other direction, and the same one after 10 s', () => {
    expect(hear(six(120), { memory: recent(30) }).last).toMatchObject({ action: 'turn', offset: -30 });
    expect(hear(six(60), { memory: recent(30, 10_000) }).last).toMatchObject({ action: 'turn', offset: 30 });
  });

  it('isWindup boundaries', () => {
    const last = { at: 0, offset: -40 };
    expect(isWindup(null, 30, 1000)).toBe(false);
    expect(isWindup(last, -24, 9999)).toBe(true);
    expect(isWindup(last, -23.9, 9999)).toBe(false);
    expect(isWindup(last, -40, 10_000)).toBe(false);
    expect(isWindup(last, 40, 1000)).toBe(false);
  });
});

describe('turn plan', () => {
  it('the head alone when the target is within ±45°', () => {
    expect(planTurn({ headYaw: 0, headPitch: 0, bodyYaw: 0 }, 30)).toEqual({ headYaw: 30, bodyYaw: null, pitch: 0 });
    expect(planTurn({ headYaw: -10, headPitch: 5, bodyYaw: 0 }, -35)).toEqual({
      headYaw: -45,
      bodyYaw: null,
      pitch: 5,
    });
  });

  it('the body carries the rest past 45° from it, never past ±60° absolute', () => {
    expect(planTurn({ headYaw: 20, headPitch: 0, bodyYaw: 0 }, 40)).toEqual({ headYaw: 60, bodyYaw: 15, pitch: 0 });
    expect(planTurn({ headYaw: 40, headPitch: 0, bodyYaw: 50 }, 40)).toEqual({ headYaw: 80, bodyYaw: null, pitch: 0 });
    expect(planTurn({ headYaw: -30, headPitch: 0, bodyYaw: -10 }, -60)).toEqual({
      headYaw: -90,
      bodyYaw: -45,
      pitch: 0,
    });
    expect(planTurn({ headYaw: -45, headPitch: 0, bodyYaw: -55 }, -80)).toEqual({
      headYaw: -105,
      bodyYaw: -60,
      pitch: 0,
    });
  });

  it('turns the gaze to the speaker, not only the body: the head yaw the daemon takes is the world yaw', () => {
    // A goto of head yaw 45° and body 60° left the head facing 45° (reachy-mini 1.13.0): a plan
    // whose head stays at 45° never faces a voice 90° away, however far the body turns.
    expect(planTurn({ headYaw: 0, headPitch: 0, bodyYaw: 0 }, 90)).toEqual({ headYaw: 90, bodyYaw: 45, pitch: 0 });
    expect(planTurn({ headYaw: 0, headPitch: 0, bodyYaw: 0 }, -150)).toEqual({
      headYaw: -105,
      bodyYaw: -60,
      pitch: 0,
    });
  });

  it('keeps the pitch within −20..15°', () => {
    expect(planTurn({ headYaw: 0, headPitch: 25, bodyYaw: 0 }, 20).pitch).toBe(15);
    expect(planTurn({ headYaw: 0, headPitch: -28, bodyYaw: 0 }, 20).pitch).toBe(-20);
  });
});

describe('sign cross-check against the tracked face', () => {
  it.each([
    [60, -0.5, 'agree'],
    [120, 0.5, 'agree'],
    [60, 0.5, 'disagree'],
    [120, -0.4, 'disagree'],
    [60, 0.1, null],
    [60, null, null],
    [85, -0.5, null],
  ] as const)('sound at %s°, face x %s → %s', (angle, x, vote) => {
    expect(signVote(angle, x)).toBe(vote);
  });
});
