/**
 * The voice listener's settings, edited from the dashboard and stored in
 * `<data dir>/voice-persona.json` (atomic, 0600; docs/architecture.md, "Configuration and persistence"). OFF by default. The
 * transcription key stays here: the view says `hasKey`, never the key, and a key kept across
 * edits only while the endpoint it is sent to stays the same (as the agent's model key).
 */
import type { VoiceSettingsView } from '../../contract/personas.ts';
import { badRequest } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { createJsonDocument, type JsonDocument } from '../../store/json-document.ts';
import { httpUrl, nextSecret, objectBody, optionalBool, optionalText, type Body } from '../settings-input.ts';
import { DEFAULT_SOURCE, parseSourceSetting } from './source-setting.ts';
import { DEFAULT_TRANSCRIPTION_MODEL, DEFAULT_TRANSCRIPTION_URL } from '../../speech/transcriber.ts';

export interface VoiceConfig {
  enabled: boolean;
  source: string;
  muted: boolean;
  transcription: { baseUrl: string; model: string; language: string; key?: string };
}

export interface VoiceSettings {
  load(): Promise<void>;
  current(): VoiceConfig;
  view(): VoiceSettingsView;
  /** Validates a partial body (400 naming the field), saves, returns the new config. */
  update(raw: unknown): Promise<VoiceConfig>;
}

export const VOICE_DEFAULTS: VoiceConfig = Object.freeze({
  enabled: false,
  source: DEFAULT_SOURCE,
  muted: false,
  transcription: Object.freeze({
    baseUrl: DEFAULT_TRANSCRIPTION_URL,
    model: DEFAULT_TRANSCRIPTION_MODEL,
    language: '',
  }),
});

const isText = (u: unknown): u is string => typeof u === 'string';

function validate(u: unknown): VoiceConfig | undefined {
  const d = u as Partial<VoiceConfig> | null;
  const t = d?.transcription as Partial<VoiceConfig['transcription']> | undefined;
  const ok =
    typeof d?.enabled === 'boolean' &&
    isText(d.source) &&
    typeof d.muted === 'boolean' &&
    isText(t?.baseUrl) &&
    isText(t?.model) &&
    isText(t?.language) &&
    (t?.key === undefined || isText(t.key));
  return ok ? (d as VoiceConfig) : undefined;
}

function mergeTranscription(stored: VoiceConfig['transcription'], raw: unknown): VoiceConfig['transcription'] {
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

export function mergeVoiceConfig(stored: VoiceConfig, raw: unknown, platform: NodeJS.Platform): VoiceConfig {
  const body: Body = objectBody(raw, ['enabled', 'source', 'muted', 'transcription']);
  const source = optionalText(body, 'source', 300);
  if (source !== undefined) parseSourceSetting(source, platform);
  return {
    enabled: optionalBool(body, 'enabled') ?? stored.enabled,
    source: source ?? stored.source,
    muted: optionalBool(body, 'muted') ?? stored.muted,
    transcription:
      body.transcription === undefined
        ? stored.transcription
        : mergeTranscription(stored.transcription, body.transcription),
  };
}

export function createVoiceSettings(deps: {
  file: string;
  log: Log;
  platform?: NodeJS.Platform;
  /** The source before the owner picks one (`daemon` where the camera carries the robot's microphone). */
  defaultSource?: string;
}): VoiceSettings {
  const platform = deps.platform ?? process.platform;
  const defaults: VoiceConfig = { ...VOICE_DEFAULTS, source: deps.defaultSource ?? VOICE_DEFAULTS.source };
  const doc: JsonDocument<VoiceConfig> = createJsonDocument({
    file: deps.file,
    defaults: () => defaults,
    validate,
    log: deps.log,
  });
  return {
    load: async () => void (await doc.load()),
    current: () => doc.get(),
    view() {
      const c = doc.get();
      const { key, ...t } = c.transcription;
      return { enabled: c.enabled, source: c.source, muted: c.muted, transcription: { ...t, hasKey: Boolean(key) } };
    },
    update: (raw) => doc.update((stored) => mergeVoiceConfig(stored, raw, platform)),
  };
}
