/**
 * The voice listener's utterances: each one the detector cuts is handled by runVoiceTurn
 * (voice-turn.ts), one at a time. At most one waits behind it, and a newer one takes its place.
 * `interrupt` (the latched stop, demo mode, mute, off, shutdown) aborts the turn under way and
 * drops the waiting one. Keeps what the dashboard shows of the turns: the step under way, how
 * many utterances were heard, the last transcript.
 */
import type { WatchdogLimits } from '../../agent/watchdog.ts';
import type { Stamped, TurnPhase } from '../../contract/personas.ts';
import type { Schedule } from '../../perception/schedule.ts';
import { createOpenAiTranscriber } from '../../speech/transcriber.ts';
import { SAMPLE_RATE } from './audio-source.ts';
import type { SpeakingHold } from './speaking-hold.ts';
import type { VoiceListenerDeps } from './voice-listener-deps.ts';
import { runVoiceTurn, type VoiceTurnDeps } from './voice-turn.ts';

/** The Ask's budget (README-agent.md): a spoken question deserves no more. */
export const VOICE_LIMITS: WatchdogLimits = Object.freeze({ overallMs: 60_000, idleMs: 20_000 });

/** The owner's dependencies a turn uses. */
export type TurnOwnerDeps = Pick<
  VoiceListenerDeps,
  'settings' | 'runtime' | 'say' | 'log' | 'makeTranscriber' | 'limits' | 'heard'
>;

/** What the listener adds: the shared hold and clock, and where the queue reports. */
export interface UtteranceQueueWiring {
  hold: SpeakingHold;
  schedule: Schedule;
  now: () => number;
  /** The step under way changed: the status is due to be published. */
  changed(): void;
  /** A turn's failure, as VoiceTurnDeps.problem reports it. */
  problem(message: string, row: boolean): void;
}

export interface UtteranceQueue {
  /** An utterance the detector cut: handled now, or once the one under way is done. */
  heard(pcm: Buffer): void;
  /** Aborts the turn under way and drops the waiting utterance. */
  interrupt(reason: string): void;
  /** Resolves once no utterance is being handled. */
  settled(): Promise<void>;
  phase(): TurnPhase | undefined;
  utterances(): number;
  lastTranscript(): Stamped | null;
}

export function createUtteranceQueue(deps: TurnOwnerDeps, wiring: UtteranceQueueWiring): UtteranceQueue {
  let pending: Buffer | undefined;
  let busy: Promise<void> | undefined;
  let controller = new AbortController();
  let phase: TurnPhase | undefined;
  let utterances = 0;
  let lastTranscript: Stamped | null = null;

  const turnDeps = (): VoiceTurnDeps => {
    const t = deps.settings.current().transcription;
    const make =
      deps.makeTranscriber ??
      ((c) => createOpenAiTranscriber({ ...c, ...(c.language ? { language: c.language } : {}) }));
    return {
      transcriber: make(t),
      runtime: deps.runtime,
      say: deps.say,
      hold: wiring.hold,
      schedule: wiring.schedule,
      limits: deps.limits ?? VOICE_LIMITS,
      sampleRate: SAMPLE_RATE,
      phase: (next) => {
        phase = next;
        wiring.changed();
      },
      transcript: (heard) => {
        lastTranscript = { text: heard.text, at: new Date(wiring.now()).toISOString() };
        deps.heard?.(heard);
      },
      problem: wiring.problem,
    };
  };

  const pump = (): void => {
    if (busy || !pending) return;
    const pcm = pending;
    pending = undefined;
    busy = runVoiceTurn(turnDeps(), pcm, controller.signal)
      .catch((error: unknown) => deps.log.error('voice turn crashed', { error: String(error) }))
      .finally(() => {
        busy = undefined;
        phase = undefined;
        wiring.changed();
        pump();
      });
  };

  return {
    heard(pcm) {
      utterances += 1;
      // One waiting utterance at most: the newest is what the person means now.
      pending = pcm;
      pump();
    },
    interrupt(reason) {
      controller.abort(new Error(reason));
      controller = new AbortController();
      pending = undefined;
    },
    async settled() {
      while (busy) await busy;
    },
    phase: () => phase,
    utterances: () => utterances,
    lastTranscript: () => lastTranscript,
  };
}
