/**
 * The voice listener's settings, edited from the dashboard and stored in
 * `<data dir>/voice-persona.json` through the voice-settings store both servers share
 * (server/speech/voice-settings-store.ts, which keeps the transcription key). OFF by default.
 */
import type { VoiceSettingsView } from '../../contract/personas.ts';
import { objectBody, optionalBool, optionalText, type Body } from '../../http/settings-input.ts';
import type { Log } from '../../log.ts';
import {
  createVoiceSettingsStore,
  isTranscription,
  mergeTranscription,
  TRANSCRIPTION_DEFAULTS,
  transcriptionView,
  type TranscriptionSettings,
  type VoiceSettingsStore,
} from '../../speech/voice-settings-store.ts';
import { DEFAULT_SOURCE, parseSourceSetting } from './source-setting.ts';

export interface VoiceConfig {
  enabled: boolean;
  source: string;
  muted: boolean;
  transcription: TranscriptionSettings;
}

export type VoiceSettings = VoiceSettingsStore<VoiceConfig, VoiceSettingsView>;

export const VOICE_DEFAULTS: VoiceConfig = Object.freeze({
  enabled: false,
  source: DEFAULT_SOURCE,
  muted: false,
  transcription: TRANSCRIPTION_DEFAULTS,
});

function validate(u: unknown): VoiceConfig | undefined {
  const d = u as Partial<VoiceConfig> | null;
  const ok =
    typeof d?.enabled === 'boolean' &&
    typeof d.source === 'string' &&
    typeof d.muted === 'boolean' &&
    isTranscription(d.transcription);
  return ok ? (d as VoiceConfig) : undefined;
}

function mergeVoiceConfig(stored: VoiceConfig, raw: unknown, platform: NodeJS.Platform): VoiceConfig {
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
  return createVoiceSettingsStore(
    {
      file: deps.file,
      defaults: { ...VOICE_DEFAULTS, source: deps.defaultSource ?? VOICE_DEFAULTS.source },
      validate,
      merge: (stored, raw) => mergeVoiceConfig(stored, raw, platform),
      view: (c) => ({
        enabled: c.enabled,
        source: c.source,
        muted: c.muted,
        transcription: transcriptionView(c.transcription),
      }),
    },
    deps.log,
  );
}
