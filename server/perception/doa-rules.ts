/**
 * The turn-toward-speaker rules (docs/contract.md, "DoA turn-toward-speaker"), pure: a
 * reading and the world around it in, a verdict and the next memory out. Every number here is
 * the reference's. Angles follow the daemon (docs/daemon.md, "State"): radians, 0 = left, π/2 =
 * front, π = right; offsets are degrees, positive to the robot's left.
 */
import type { TurnPlan } from '../contract/perception.ts';

export const DOA_RULES = Object.freeze({
  /** 0° and 180° are the linear array's rails: the value for "no estimate", never a bearing. */
  railDeg: 3,
  /** The robot's own voice and the room's echo outlast the speaking hold by this much. */
  speakTailMs: 1500,
  streak: 6,
  tolDeg: 12,
  /** A gap between readings longer than this breaks the streak. */
  gapMs: 1000,
  /** A face seen this recently means the tracker, which knows better, has the head. */
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

export interface Reading {
  /** Radians, as the daemon sends it. */
  angle: number;
  speech: boolean;
  /** Epoch ms. */
  at: number;
}

/** Everything outside the microphone that may veto a turn. */
export interface Surroundings {
  enabled: boolean;
  /** A `speaking` hold stands or ended under 1.5 s ago. */
  ownVoice: boolean;
  /** The tracker saw a face under 1.5 s ago. */
  faceFresh: boolean;
  holds: string[];
  lifted: boolean;
  /** Why motion is busy (a move running, the latched stop, the reel), or null. */
  busy: string | null;
}

export interface LastTurn {
  at: number;
  offset: number;
}

export interface Memory {
  /** Angles (degrees) of the current run of usable readings, oldest first. */
  streak: number[];
  lastReadingAt: number | null;
  lastTurn: LastTurn | null;
}

export type Verdict =
  | { action: 'wait'; why: string }
  | { action: 'refuse'; why: string; offset: number }
  | { action: 'turn'; offset: number; angleDeg: number };

export const EMPTY_MEMORY: Memory = Object.freeze({ streak: [], lastReadingAt: null, lastTurn: null });

/** Hundredths of a degree: finer than any array resolves, and free of float noise. */
const deg = (rad: number): number => Math.round((rad * 18000) / Math.PI) / 100;

/** sign × (90° − angle): positive means the sound is on the robot's left. */
export function offsetOf(angleDeg: number, sign: 1 | -1 = 1): number {
  return sign * (90 - angleDeg);
}

export function onRail(angleDeg: number): boolean {
  return angleDeg <= DOA_RULES.railDeg || angleDeg >= 180 - DOA_RULES.railDeg;
}

/** The last 6 readings all lie within ±12° of their mean. */
export function streakAgrees(streak: readonly number[]): boolean {
  if (streak.length < DOA_RULES.streak) return false;
  const tail = streak.slice(-DOA_RULES.streak);
  const mean = tail.reduce((a, b) => a + b, 0) / tail.length;
  return tail.every((a) => Math.abs(a - mean) <= DOA_RULES.tolDeg);
}

/**
 * A second turn the same way within 10 s is refused unless the bearing shrank below 0.6 of the
 * previous offset: if it did not shrink, the sound turns with the robot (its own speaker, an
 * echo), and following it would wind the body up.
 */
export function isWindup(last: LastTurn | null, offset: number, now: number): boolean {
  if (!last || now - last.at >= DOA_RULES.windupMs) return false;
  if (last.offset * offset <= 0) return false;
  return Math.abs(offset) >= DOA_RULES.windupRatio * Math.abs(last.offset);
}

/** Judges one reading. The memory returned replaces the one given. */
export function judge(
  memory: Memory,
  reading: Reading,
  world: Surroundings,
  sign: 1 | -1 = 1,
): {
  memory: Memory;
  verdict: Verdict;
} {
  const gapBroken = memory.lastReadingAt !== null && reading.at - memory.lastReadingAt > DOA_RULES.gapMs;
  const base: Memory = { ...memory, lastReadingAt: reading.at, streak: gapBroken ? [] : memory.streak };
  const reset = (why: string) => ({ memory: { ...base, streak: [] }, verdict: { action: 'wait', why } as Verdict });
  const angleDeg = deg(reading.angle);
  if (!world.enabled) return reset('disabled');
  if (!reading.speech) return reset('no speech');
  if (onRail(angleDeg)) return reset('rail reading');
  if (world.ownVoice) return reset('hearing its own voice');
  const next: Memory = { ...base, streak: [...base.streak, angleDeg].slice(-DOA_RULES.streak) };
  const blocked = blocker(next, world, reading.at);
  if (blocked) return { memory: next, verdict: { action: 'wait', why: blocked } };
  const mean = next.streak.reduce((a, b) => a + b, 0) / next.streak.length;
  const offset = offsetOf(mean, sign);
  if (Math.abs(offset) < DOA_RULES.minOffsetDeg) {
    return { memory: next, verdict: { action: 'wait', why: `already facing (${signed(offset)})` } };
  }
  if (isWindup(next.lastTurn, offset, reading.at)) {
    return { memory: { ...next, streak: [] }, verdict: { action: 'refuse', why: 'windup guard', offset } };
  }
  return {
    memory: { ...next, streak: [], lastTurn: { at: reading.at, offset } },
    verdict: { action: 'turn', offset, angleDeg: mean },
  };
}

/** The rules that keep the streak but stop the turn, in the reference's order. */
function blocker(memory: Memory, world: Surroundings, now: number): string | null {
  if (memory.streak.length < DOA_RULES.streak) return `listening ${memory.streak.length}/${DOA_RULES.streak}`;
  if (!streakAgrees(memory.streak)) return 'sound is moving';
  if (world.faceFresh) return 'face tracker has a lock';
  if (world.holds.length > 0) return `tracker hold: ${world.holds.join(', ')}`;
  if (world.lifted) return 'lifted';
  if (world.busy) return world.busy;
  if (memory.lastTurn && now - memory.lastTurn.at < DOA_RULES.minIntervalMs) return 'rate limit';
  return null;
}

function signed(value: number): string {
  const r = Math.round(value);
  return `${r > 0 ? '+' : ''}${r}°`;
}

export interface PoseDeg {
  headYaw: number;
  headPitch: number;
  bodyYaw: number;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/**
 * The gaze goes to current yaw + offset. The head's yaw is the world's, as the daemon takes and
 * reports it (docs/daemon.md, "Moves"): turning the body does not turn the gaze, it lets the head
 * turn further. So the head turns up to ±45° away from the body, the body carries the rest but
 * never past ±60° absolute, and the gaze reaches ±105° at most; pitch is kept within −20..15°.
 */
export function planTurn(pose: PoseDeg, offset: number): TurnPlan {
  const { headMaxDeg, bodyMaxDeg } = DOA_RULES;
  const gaze = clamp(pose.headYaw + offset, -(bodyMaxDeg + headMaxDeg), bodyMaxDeg + headMaxDeg);
  const away = gaze - pose.bodyYaw;
  const rest = away - clamp(away, -headMaxDeg, headMaxDeg);
  // Under a degree is noise; moving the body for it would only shake the robot.
  const bodyYaw = Math.abs(rest) > 1 ? clamp(pose.bodyYaw + rest, -bodyMaxDeg, bodyMaxDeg) : null;
  const body = bodyYaw ?? pose.bodyYaw;
  const headYaw = clamp(gaze, body - headMaxDeg, body + headMaxDeg);
  return { headYaw, bodyYaw, pitch: clamp(pose.headPitch, DOA_RULES.pitchMinDeg, DOA_RULES.pitchMaxDeg) };
}

/**
 * The empirical sign check: with speech and a tracked face off-centre, does the sound's side
 * match the face's? Face x < 0 is the left of the image, the robot's left.
 */
export function signVote(angleDeg: number, faceX: number | null): 'agree' | 'disagree' | null {
  if (faceX === null || Math.abs(faceX) < 0.15) return null;
  const raw = 90 - angleDeg;
  if (Math.abs(raw) < DOA_RULES.minOffsetDeg) return null;
  return raw > 0 === faceX < 0 ? 'agree' : 'disagree';
}
