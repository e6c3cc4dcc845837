/**
 * What the dashboard shows of the voice listener: one state (the step of an utterance being
 * handled, else the microphone's), a line of detail, the last transcript and the last problem,
 * and the restart schedule. The same state is the `voice` line of the state object's services.
 */
import type { ServiceState } from '../../contract/state.ts';
import type { TurnPhase } from './voice-turn.ts';

/** The microphone side: off, muted or paused by the owner, opening, open, failed, or run out. */
export type LinkState = 'off' | 'muted' | 'paused' | 'starting' | 'listening' | 'failed' | 'ended';

export type VoiceState = LinkState | TurnPhase;

export interface Stamped {
  text: string;
  /** ISO time. */
  at: string;
}

export interface VoiceStatus {
  state: VoiceState;
  detail: string;
  /** The audio source in use (or last tried), e.g. `microphone default (alsa)`. */
  source: string | null;
  utterances: number;
  lastTranscript: Stamped | null;
  lastError: Stamped | null;
  /** Failures since the listener last ran for a minute. */
  failures: number;
  /** ISO time of the next restart, while one is scheduled. */
  retryAt: string | null;
}

const PHASE_DETAIL: Record<TurnPhase, string> = {
  transcribing: 'transcribing what it heard',
  thinking: 'thinking about an answer',
  speaking: 'speaking the answer',
};

export function phaseDetail(phase: TurnPhase): string {
  return PHASE_DETAIL[phase];
}

export function serviceOf(status: VoiceStatus): ServiceState {
  const detail = `voice: ${status.detail}`;
  switch (status.state) {
    case 'off':
      return { state: 'off', detail };
    case 'muted':
    case 'paused':
      return { state: 'paused', detail };
    case 'failed':
    case 'ended':
      return { state: 'stopped', detail };
    default:
      return { state: 'running', detail };
  }
}
