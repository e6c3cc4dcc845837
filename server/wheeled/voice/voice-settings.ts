/**
 * How /ws/voice answers, edited through GET/PUT /api/console/voice and stored in
 * `<dataDir>/wheeled-voice.json` through the voice-settings store both servers share
 * (server/speech/voice-settings-store.ts). `offline` (the default) speaks the agent's replies with
 * espeak-ng and transcribes speech only once a transcription endpoint is set; `realtime` hands
 * the whole conversation to an OpenAI-Realtime-compatible speech model over WebSocket. Keys are
 * never shown again once saved (`hasKey`); a key omitted in a PUT is kept, "" clears it.
 */
import { join } from 'node:path';
import type { WheeledVoiceSettingsView } from '../../contract/wheeled.ts';
import { badRequest } from '../../errors.ts';
import { nextSecret, objectBody, optionalText, wsUrl } from '../../http/settings-input.ts';
import type { Log } from '../../log.ts';
import {
  createVoiceSettingsStore,
  mergeTranscription,
  TRANSCRIPTION_DEFAULTS,
  transcriptionView,
  type TranscriptionSettings,
  type VoiceSettingsStore,
} from '../../speech/voice-settings-store.ts';

export interface RealtimeConfig {
  url: string;
  model: string;
  voice: string;
  key?: string;
}

export interface VoiceConfig {
  provider: 'offline' | 'realtime';
  realtime: RealtimeConfig | null;
  /** null until the owner sets an endpoint: offline voice then answers typed text only. */
  transcription: TranscriptionSettings | null;
}

export type VoiceSettings = VoiceSettingsStore<VoiceConfig, WheeledVoiceSettingsView>;

export const REALTIME_DEFAULTS = Object.freeze({
  url: 'wss://api.openai.com/v1/realtime',
  model: 'gpt-4o-realtime-preview',
  voice: 'alloy',
});

const EMPTY: VoiceConfig = Object.freeze({ provider: 'offline', realtime: null, transcription: null }) as VoiceConfig;

function mergeRealtime(stored: RealtimeConfig | null, raw: unknown): RealtimeConfig {
  const body = objectBody(raw, ['url', 'model', 'voice', 'key'], 'realtime');
  const typedUrl = optionalText(body, 'url', 2000);
  const url = typedUrl ? wsUrl(typedUrl, 'realtime.url') : (stored?.url ?? REALTIME_DEFAULTS.url);
  const key = nextSecret(optionalText(body, 'key', 1000), stored?.key, url === stored?.url);
  return {
    url,
    model: optionalText(body, 'model', 200) || (stored?.model ?? REALTIME_DEFAULTS.model),
    voice: optionalText(body, 'voice', 200) || (stored?.voice ?? REALTIME_DEFAULTS.voice),
    ...(key ? { key } : {}),
  };
}

/** A section of the body: undefined keeps the stored one, null clears it, an object is merged. */
function section<T>(raw: unknown, stored: T | null, merge: (stored: T | null, raw: unknown) => T): T | null {
  if (raw === undefined) return stored;
  return raw === null ? null : merge(stored, raw);
}

function mergeVoiceConfig(current: VoiceConfig, raw: unknown): VoiceConfig {
  const body = objectBody(raw, ['provider', 'realtime', 'transcription']);
  if (body.provider !== undefined && body.provider !== 'offline' && body.provider !== 'realtime')
    throw badRequest('provider must be offline or realtime');
  const realtime = section(body.realtime, current.realtime, mergeRealtime);
  const transcription = section(body.transcription, current.transcription, (stored, t) =>
    mergeTranscription(stored ?? TRANSCRIPTION_DEFAULTS, t),
  );
  const provider = (body.provider as VoiceConfig['provider'] | undefined) ?? current.provider;
  if (provider === 'realtime' && !realtime) throw badRequest('realtime needs realtime.url (and usually realtime.key)');
  return { provider, realtime, transcription };
}

/** Files written before the store was shared named the transcription endpoint `url`. */
function migrate(u: unknown): unknown {
  const t = (u as { transcription?: Record<string, unknown> } | null)?.transcription;
  if (!t || typeof t !== 'object' || !('url' in t) || 'baseUrl' in t) return u;
  const { url, ...rest } = t;
  return { ...(u as object), transcription: { ...rest, baseUrl: url } };
}

function validate(u: unknown): VoiceConfig | undefined {
  try {
    // The stored document is read as a PUT over nothing: one rule for what a valid document is.
    return mergeVoiceConfig(EMPTY, migrate(u));
  } catch {
    return undefined;
  }
}

function viewOf(config: VoiceConfig): WheeledVoiceSettingsView {
  const rt = config.realtime;
  return {
    provider: config.provider,
    realtime: rt ? { url: rt.url, model: rt.model, voice: rt.voice, hasKey: Boolean(rt.key) } : null,
    transcription: config.transcription ? transcriptionView(config.transcription) : null,
  };
}

export function createVoiceSettings(options: { dataDir: string; log: Log }): VoiceSettings {
  return createVoiceSettingsStore(
    {
      file: join(options.dataDir, 'wheeled-voice.json'),
      defaults: { ...EMPTY },
      validate,
      merge: mergeVoiceConfig,
      view: viewOf,
    },
    options.log,
  );
}
