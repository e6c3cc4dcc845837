/**
 * Speech to text through an OpenAI-compatible transcription endpoint (POST
 * <url>/audio/transcriptions, multipart `file` + `model`, answer {text}): OpenAI, a local
 * whisper.cpp or faster-whisper server. Only used when the dashboard configures one: without
 * it the offline voice says honestly that it cannot understand speech.
 */
import { wavFromPcm } from './pcm.ts';
import type { TranscriptionConfig } from './voice-settings.ts';

export type Transcribe = (pcm: Buffer, rate: number, signal: AbortSignal) => Promise<string>;

export function createTranscriber(config: TranscriptionConfig, fetchImpl: typeof fetch = fetch): Transcribe {
  return async (pcm, rate, signal) => {
    const form = new FormData();
    form.append('file', new Blob([wavFromPcm(pcm, rate)], { type: 'audio/wav' }), 'speech.wav');
    form.append('model', config.model);
    const res = await fetchImpl(`${config.url}/audio/transcriptions`, {
      method: 'POST',
      body: form,
      headers: config.key ? { authorization: `Bearer ${config.key}` } : {},
      signal,
    });
    const body = (await res.json().catch(() => null)) as { text?: unknown; error?: { message?: unknown } } | null;
    if (!res.ok) {
      const detail = typeof body?.error?.message === 'string' ? `: ${body.error.message}` : '';
      throw new Error(`the transcription endpoint answered ${res.status}${detail}`);
    }
    if (typeof body?.text !== 'string') throw new Error('the transcription endpoint answered without text');
    return body.text.trim();
  };
}
