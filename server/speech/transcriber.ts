/**
 * Speech to text through an OpenAI-compatible transcription endpoint: `POST
 * {baseUrl}/audio/transcriptions`, multipart/form-data with `file` (the utterance as WAV) and
 * `model`, answered `{text}` (response_format json). OpenAI, whisper.cpp's server, faster-whisper
 * servers, LocalAI and vLLM speak it. Errors come back as `{error: {message}}`, which is what
 * the status line shows. The key is sent as a bearer only when one is set. Both voices use it:
 * the persona voice listener (server/personas/voice) and the wheeled server's offline voice
 * (server/wheeled/voice/offline-voice.ts); the WAV they upload is server/speech/wav.ts's pcm16Wav.
 */
import { withDeadline } from '../deadline.ts';
import { BodyTooLong, readJsonUpTo } from '../http-body.ts';
import { readWavInfo } from './wav.ts';

export interface Transcriber {
  /** The text of one utterance ('' when the service heard nothing). */
  transcribe(wav: Buffer, signal: AbortSignal): Promise<string>;
}

export interface TranscriberOptions {
  baseUrl: string;
  model: string;
  key?: string;
  /** Language hint (ISO-639-1), when set. */
  language?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export const DEFAULT_TRANSCRIPTION_URL = 'https://api.openai.com/v1';
export const DEFAULT_TRANSCRIPTION_MODEL = 'whisper-1';
const TIMEOUT_MS = 30_000;

/** The longest answer read: `{text}` for an utterance of seconds, a few kilobytes with segments. */
const ANSWER_LIMIT = 1024 * 1024;

/** A failure worth showing as it is (the service's own message, or what went wrong). */
export class TranscriptionError extends Error {
  override readonly name = 'TranscriptionError';
}

function errorMessage(status: number, body: unknown): string {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  const message = typeof error?.message === 'string' ? error.message : '';
  return `transcription failed: HTTP ${status}${message ? ` ${message}` : ''}`;
}

/**
 * The most text an utterance of this WAV's length can transcribe to. Fast speech is about 4 words,
 * some 25 characters, a second; twice that and a margin is no limit for a person, while a service
 * that answers more is not transcribing this audio, and its text would become the agent's prompt.
 */
export function mostCharactersIn(wav: Buffer): number {
  let seconds = 0;
  try {
    seconds = readWavInfo(wav).seconds;
  } catch {
    // Not a WAV this module wrote: only the margin.
  }
  return 200 + Math.ceil(seconds * 50);
}

export function createOpenAiTranscriber(options: TranscriberOptions): Transcriber {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
  return {
    async transcribe(wav, signal) {
      const form = new FormData();
      form.append('file', new Blob([wav], { type: 'audio/wav' }), 'utterance.wav');
      form.append('model', options.model);
      form.append('response_format', 'json');
      if (options.language) form.append('language', options.language);
      const headers: Record<string, string> = options.key ? { authorization: `Bearer ${options.key}` } : {};
      let answered: { response: Response; body: unknown };
      try {
        // The deadline covers the body too, whatever the collector does (server/deadline.ts).
        answered = await withDeadline(
          options.timeoutMs ?? TIMEOUT_MS,
          async (bounded) => {
            const response = await doFetch(url, { method: 'POST', headers, body: form, signal: bounded });
            return { response, body: (await readJsonUpTo(response, ANSWER_LIMIT)) ?? null };
          },
          { signal },
        );
      } catch (error) {
        if (signal.aborted) throw error;
        if (error instanceof BodyTooLong) throw new TranscriptionError(`transcription failed: ${error.message}`);
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        throw new TranscriptionError(`transcription service unreachable (${cause ?? (error as Error).message})`);
      }
      const { response, body } = answered;
      if (!response.ok) throw new TranscriptionError(errorMessage(response.status, body));
      const text = (body as { text?: unknown } | null)?.text;
      if (typeof text !== 'string') throw new TranscriptionError('transcription failed: the answer has no text');
      const heard = text.trim();
      const most = mostCharactersIn(wav);
      if (heard.length > most)
        throw new TranscriptionError(
          `transcription failed: the answer has ${heard.length} characters, more than this utterance could hold (${most})`,
        );
      return heard;
    },
  };
}
