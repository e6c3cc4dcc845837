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

/**
 * The most text espeak-ng is given at once. Its clip is held whole and capped at 16 MiB
 * (server/speech/espeak.ts), some six minutes of plain words and fewer of numbers read out: an
 * answer past it was not spoken at all, only an error frame said so. A longer answer is spoken
 * piece after piece, each cut after a sentence where one ends, else at a space.
 */
export const PIECE_CHARS = 1000;

export function spokenPieces(text: string, most = PIECE_CHARS): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > most) {
    const head = rest.slice(0, most);
    const sentence = Math.max(...['. ', '! ', '? ', '\n'].map((end) => head.lastIndexOf(end)));
    const space = head.lastIndexOf(' ');
    const cut = sentence > 0 ? sentence + 1 : space > 0 ? space : most;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

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
