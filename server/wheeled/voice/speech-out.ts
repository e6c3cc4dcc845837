/**
 * Spoken answers of the offline voice: espeak-ng (server/speech/espeak.ts) renders the text,
 * the WAV becomes mono PCM16 at the session's rate, cut into 100 ms frames for
 * {type: "audio", data: base64} (docs/contract.md, "Events").
 */
import type { SpeechEngine } from '../../speech/engine.ts';
import { pcmFromWav } from '../../speech/wav.ts';
import { pcmFrames, resamplePcm16 } from './pcm.ts';

/** espeak-ng writes 22050 Hz mono: the offline session announces that rate. */
export const OFFLINE_RATE = 22_050;

export async function speakFrames(
  engine: SpeechEngine,
  text: string,
  rate: number,
  signal: AbortSignal,
): Promise<Buffer[]> {
  const clip = await engine.synthesize(text, signal);
  const { pcm, rate: from } = pcmFromWav(clip.wav);
  return pcmFrames(resamplePcm16(pcm, from, rate), rate);
}
