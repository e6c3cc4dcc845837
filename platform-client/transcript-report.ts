/**
 * The voice persona's utterances as on-device transcripts (POST /api/devices/transcript, "stores
 * on-device transcriptions beyond the relay sweep"). Sent only while the robot is linked: enrolled,
 * connected by the operator and not halted, so switching the platform link off also stops what
 * is heard from leaving the robot. Fire and forget: a transcript is a record, not a turn, so a
 * failure is logged and the utterance is not retried (the voice turn never waits for it).
 */
import type { DeviceRoutes } from './device-routes.ts';
import type { PlatformStatus } from './status.ts';
import type { PlatformLog } from './types.ts';

/** One understood utterance: its text and length in whole seconds. */
export interface HeardTranscript {
  text: string;
  durationS: number;
}

/** The label the platform shows beside the robot's transcripts (at most 80 characters). */
export const VOICE_TRANSCRIPT_LABEL = 'voice';

export function createTranscriptReporter(deps: {
  routes: Pick<DeviceRoutes, 'transcript'>;
  status: () => PlatformStatus;
  log: PlatformLog;
}): (heard: HeardTranscript) => void {
  return ({ text, durationS }) => {
    const { enrolled, connected, halted } = deps.status();
    if (!enrolled || !connected || halted !== null) return;
    void deps.routes
      .transcript({ text, label: VOICE_TRANSCRIPT_LABEL, durationS })
      .then((out) => {
        if (!out.ok) deps.log.warn('transcript not stored on the platform', { error: out.failure.message });
      })
      .catch((error: unknown) => deps.log.warn('transcript not stored on the platform', { error: String(error) }));
  };
}
