/**
 * What the dashboard shows of the voice listener: one state (the step of an utterance being
 * handled, else the microphone's), a line of detail, the last transcript and the last problem,
 * and the restart schedule. The same state is the `voice` line of the state object's services.
 */
import type { TurnPhase, VoiceStatus } from '../../contract/personas.ts';
import type { ServiceState } from '../../contract/state.ts';

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
