/**
 * Turn toward the speaker (docs/contract.md, "DoA turn-toward-speaker"): direction of
 * arrival comes inside every frame of the ONE state feed (it asks for `with_doa`), so nothing
 * polls the daemon for it. Each reading is judged by doa-rules.ts; a turn is one 0.7 s goto
 * through the motion arbiter, so it is the move owner like any other move.
 */
import { systemClock, type Clock } from '../clock.ts';
import type { DoaStatus } from '../contract/perception.ts';
import type { ServiceState } from '../contract/state.ts';
import { toDeg, wirePoseToXyzRpy } from '../daemon/units.ts';
import type { FullState } from '../daemon/wire.ts';
import type { Log } from '../log.ts';
import { createDeduped, keyRound, type Broadcast } from './dedupe.ts';
import {
  DOA_RULES,
  EMPTY_MEMORY,
  judge,
  onRail,
  planTurn,
  signVote,
  type Memory,
  type PoseDeg,
  type Reading,
  type Surroundings,
} from './doa-rules.ts';
import type { MotionGate } from './motion-gate.ts';
import type { TrackerView } from './tracking.ts';
import { messageOf } from '../errors.ts';

export interface DoaTurner {
  /** Subscribes to the state feed. */
  start(): void;
  stop(): void;
  setEnabled(on: boolean): DoaStatus;
  status(): DoaStatus;
  /** One state sample; what the feed calls. */
  onState(state: FullState): void;
}

export interface DoaDeps {
  feed: {
    onSample(listener: (sample: { state: FullState }) => void): () => void;
    /** Asks the one state stream for a rate (undefined withdraws); state-feed.ts, demand. */
    demand?(reason: string, hz: number | undefined): void;
  };
  tracker: TrackerView;
  motion: MotionGate;
  log: Log;
  clock?: Clock;
  broadcast?: Broadcast;
  services?: Map<string, ServiceState>;
  /** On by default (docs/contract.md, "States"). */
  enabled?: boolean;
  /** The calibrated sign of the array; +1 = positive offset is the robot's left. */
  sign?: 1 | -1;
  /** The robot is off the table. Only the Wireless IMU could say (docs/daemon.md, "Media"); else false. */
  lifted?: () => boolean;
}

/**
 * The daemon refreshes DoA at 10 Hz (docs/daemon.md, "State") while the feed runs faster: frames in
 * between repeat the cached value, and counting them would shrink the 6-reading streak to 0.2 s.
 */
const MIN_READING_SPACING_MS = 90;

/**
 * A robot at rest streams state slower than the daemon refreshes DoA (docs/daemon.md, "State
 * stream rate"). Speech heard asks the stream for the DoA rate, so a streak still takes 0.6 s,
 * and the ask stands until the room has been quiet this long.
 */
const DOA_HZ = 10;
const SPEECH_HOLD_MS = 10_000;

export function createDoaTurner(deps: DoaDeps): DoaTurner {
  return new Turner(deps);
}

class Turner implements DoaTurner {
  private readonly clock: Clock;
  private readonly frames;
  private enabled: boolean;
  private memory: Memory = EMPTY_MEMORY;
  private bearing: number | null = null;
  private speech = false;
  private why: string | null;
  private turns = 0;
  private windups = 0;
  private votes = { agree: 0, disagree: 0 };
  private lastTurn: DoaStatus['lastTurn'] = null;
  private error: string | null = null;
  private unsubscribe: (() => void) | undefined;
  /** When speech was last heard while the stream is asked for the DoA rate; null when not asked. */
  private askingSince: number | null = null;

  constructor(private readonly deps: DoaDeps) {
    this.clock = deps.clock ?? systemClock;
    this.enabled = deps.enabled ?? true;
    this.why = this.enabled ? 'no reading yet' : 'disabled';
    this.frames = createDeduped<DoaStatus>('doa', doaKey, deps.broadcast);
  }

  start(): void {
    this.unsubscribe ??= this.deps.feed.onSample((sample) => {
      // The feed calls its listeners in turn: a fault here must not starve the others.
      try {
        this.onState(sample.state);
      } catch (err) {
        this.deps.log.error('turn toward speaker: reading not handled', { error: String(err) });
      }
    });
    this.changed();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.withdrawRate();
  }

  setEnabled(on: boolean): DoaStatus {
    this.enabled = on;
    this.memory = { ...this.memory, streak: [] };
    this.why = on ? 'listening' : 'disabled';
    if (!on) this.withdrawRate();
    this.deps.log.info(`turn toward speaker ${on ? 'on' : 'off'}`);
    this.changed();
    return this.status();
  }

  status(): DoaStatus {
    return {
      enabled: this.enabled,
      bearing: this.bearing,
      speech: this.speech,
      why: this.why,
      turns: this.turns,
      windupRefusals: this.windups,
      sign: { ...this.votes },
      lastTurn: this.lastTurn,
      error: this.error,
    };
  }

  onState(state: FullState): void {
    const doa = state.doa;
    const now = this.clock.now();
    if (!doa || typeof doa.angle !== 'number' || !Number.isFinite(doa.angle)) {
      // The microphone array stopped answering: no speech is heard, so the hold runs out as in a quiet room.
      if (this.askingSince !== null && now - this.askingSince >= SPEECH_HOLD_MS) this.withdrawRate();
      return;
    }
    const last = this.memory.lastReadingAt;
    if (last !== null && now - last < MIN_READING_SPACING_MS) return;
    const reading: Reading = { angle: doa.angle, speech: doa.speech_detected === true, at: now };
    const angleDeg = toDeg(doa.angle);
    this.bearing = Math.round((90 - angleDeg) * 10) / 10;
    this.speech = reading.speech;
    this.followSpeech(reading);
    const ownVoice = this.deps.tracker.isSpeaking(DOA_RULES.speakTailMs);
    this.countSign(reading, angleDeg, ownVoice);
    const { memory, verdict } = judge(this.memory, reading, this.surroundings(ownVoice, now), this.deps.sign ?? 1);
    this.memory = memory;
    if (verdict.action === 'turn') this.turn(state, verdict.offset, now);
    else {
      if (verdict.action === 'refuse') this.windups += 1;
      this.why = verdict.why;
    }
    this.changed();
  }

  /** Speech asks the stream for the DoA rate; a quiet room, read on a later reading, withdraws it. */
  private followSpeech(reading: Reading): void {
    if (reading.speech && this.enabled) {
      if (this.askingSince === null) this.deps.feed.demand?.('voice', DOA_HZ);
      this.askingSince = reading.at;
    } else if (this.askingSince !== null && reading.at - this.askingSince >= SPEECH_HOLD_MS) this.withdrawRate();
  }

  private withdrawRate(): void {
    if (this.askingSince === null) return;
    this.askingSince = null;
    this.deps.feed.demand?.('voice', undefined);
  }

  private surroundings(ownVoice: boolean, now: number): Surroundings {
    const tracker = this.deps.tracker;
    const seen = tracker.faceSeenAt();
    return {
      enabled: this.enabled,
      ownVoice,
      faceFresh: tracker.enabled() && seen !== null && now - seen <= DOA_RULES.faceFreshMs,
      holds: tracker.liveHolds(),
      lifted: this.deps.lifted?.() ?? false,
      busy: this.deps.motion.busy(),
    };
  }

  private countSign(reading: Reading, angleDeg: number, ownVoice: boolean): void {
    if (!reading.speech || onRail(angleDeg) || ownVoice || !this.deps.tracker.enabled()) return;
    const face = this.deps.tracker.face();
    if (!face.detected) return;
    const vote = signVote(angleDeg, face.x);
    if (vote) this.votes[vote] += 1;
  }

  private turn(state: FullState, offset: number, now: number): void {
    const plan = planTurn(poseOf(state), offset);
    this.turns += 1;
    this.why = null;
    this.lastTurn = { at: new Date(now).toISOString(), bearing: Math.round(offset * 10) / 10, plan };
    this.deps.log.info('turning toward the speaker', { offset: this.lastTurn.bearing, ...plan });
    this.deps.motion.turn(plan).then(
      () => {
        this.error = null;
      },
      (err: unknown) => {
        this.error = messageOf(err);
        this.deps.log.info('turn toward the speaker refused', { error: this.error });
        this.changed();
      },
    );
  }

  private changed(): void {
    const status = this.status();
    this.deps.services?.set('doa', {
      state: this.enabled ? 'running' : 'off',
      detail: this.enabled ? (status.why ?? 'turned toward the speaker') : 'turn toward speaker off',
    });
    this.frames.offer(status);
  }
}

function poseOf(state: FullState): PoseDeg {
  const head = state.head_pose ? wirePoseToXyzRpy(state.head_pose) : { yaw: 0, pitch: 0 };
  return { headYaw: toDeg(head.yaw), headPitch: toDeg(head.pitch), bodyYaw: toDeg(state.body_yaw ?? 0) };
}

/** De-duplicated on (enabled, why, turns, rounded bearing). */
function doaKey(s: DoaStatus): string {
  return JSON.stringify([s.enabled, s.why, s.turns, keyRound(s.bearing, 0)]);
}
