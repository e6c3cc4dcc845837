/**
 * The one voice-settings store of both servers: a settings document on disk (atomic, 0600;
 * docs/architecture.md, "Configuration and persistence") with its PUT merge and its view, and the
 * section both documents carry, where speech goes to be transcribed. The desktop listener's
 * document (server/personas/voice/voice-settings.ts) and the wheeled /ws/voice document
 * (server/wheeled/voice/voice-settings.ts) declare only their own fields on top of it.
 *
 * Keys stay on the robot: views say `hasKey`, never the key, and a stored key is kept across
 * edits only while the endpoint it is sent to stays the same.
 */
import type { TranscriptionView } from '../contract/personas.ts';
import { badRequest } from '../errors.ts';
import { httpUrl, nextSecret, objectBody, optionalText } from '../http/settings-input.ts';
import type { Log } from '../log.ts';
import { createJsonDocument } from '../store/json-document.ts';
import { DEFAULT_TRANSCRIPTION_MODEL, DEFAULT_TRANSCRIPTION_URL } from './transcriber.ts';

export interface TranscriptionSettings {
  /** Base URL of an OpenAI-compatible API (…/v1); speech goes to `<baseUrl>/audio/transcriptions`. */
  baseUrl: string;
  model: string;
  /** ISO-639 hint, or '' to let the service guess. */
  language: string;
  key?: string;
}

export const TRANSCRIPTION_DEFAULTS: TranscriptionSettings = Object.freeze({
  baseUrl: DEFAULT_TRANSCRIPTION_URL,
  model: DEFAULT_TRANSCRIPTION_MODEL,
  language: '',
});

const isText = (u: unknown): u is string => typeof u === 'string';

/** Whether a stored section has the shape (the document's validate). */
export function isTranscription(u: unknown): u is TranscriptionSettings {
  const t = u as Partial<TranscriptionSettings> | null;
  return isText(t?.baseUrl) && isText(t.model) && isText(t.language) && (t.key === undefined || isText(t.key));
}

/** A PUT's `transcription` object over the stored section: what it names changes, "" resets. */
export function mergeTranscription(stored: TranscriptionSettings, raw: unknown): TranscriptionSettings {
  const body = objectBody(raw, ['baseUrl', 'model', 'language', 'key'], 'transcription');
  const typedUrl = optionalText(body, 'baseUrl', 500);
  const baseUrl =
    typedUrl === undefined
      ? stored.baseUrl
      : typedUrl === ''
        ? DEFAULT_TRANSCRIPTION_URL
        : httpUrl(typedUrl, 'transcription.baseUrl');
  const model = optionalText(body, 'model', 200) || stored.model;
  const language = optionalText(body, 'language', 16) ?? stored.language;
  if (language !== '' && !/^[a-z]{2,3}(-[A-Za-z]{2,4})?$/.test(language))
    throw badRequest('transcription.language must be a language code such as en, or ""');
  const key = nextSecret(optionalText(body, 'key', 1000), stored.key, baseUrl === stored.baseUrl);
  return { baseUrl, model, language, ...(key ? { key } : {}) };
}

export function transcriptionView(t: TranscriptionSettings): TranscriptionView {
  return { baseUrl: t.baseUrl, model: t.model, language: t.language, hasKey: Boolean(t.key) };
}

export interface VoiceSettingsStore<Config, View> {
  load(): Promise<void>;
  current(): Config;
  view(): View;
  /** Validates a partial body (400 naming the field), saves, returns the new config. */
  update(raw: unknown): Promise<Config>;
}

export interface VoiceDocument<Config, View> {
  file: string;
  defaults: Config;
  /** The stored document, or undefined when the file holds something else (it is set aside). */
  validate(u: unknown): Config | undefined;
  /** A PUT body over the stored config; throws a 400 naming the field. */
  merge(stored: Config, raw: unknown): Config;
  view(config: Config): View;
}

export function createVoiceSettingsStore<Config, View>(
  document: VoiceDocument<Config, View>,
  log: Log,
): VoiceSettingsStore<Config, View> {
  const doc = createJsonDocument<Config>({
    file: document.file,
    defaults: () => document.defaults,
    validate: (u) => document.validate(u),
    log,
  });
  return {
    load: async () => void (await doc.load()),
    current: () => doc.get(),
    view: () => document.view(doc.get()),
    update: (raw) => doc.update((stored) => document.merge(stored, raw)),
  };
}
