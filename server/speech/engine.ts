/**
 * A speech engine turns text into a WAV clip for the robot's speaker. The cockpit ships
 * espeak-ng (espeak.ts); the interface leaves room for a cloud voice later.
 */

export interface SpeechClip {
  /** A complete RIFF/WAVE file with truthful sizes. */
  wav: Buffer;
  /** Length of the audio, from the WAV header and the data present. */
  seconds: number;
}

export interface SpeechEngine {
  readonly name: string;
  /** Rejects when the signal aborts (a newer utterance or the stop). */
  synthesize(text: string, signal: AbortSignal): Promise<SpeechClip>;
}
