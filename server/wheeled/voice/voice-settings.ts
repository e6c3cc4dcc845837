/**
 * How /ws/voice answers, edited in the dashboard (GET/PUT /api/console/voice) and stored in
 * `<dataDir>/wheeled-voice.json` (0600, atomic). `offline` (the default) speaks the agent's
 * replies with espeak-ng and transcribes speech only through a configured OpenAI-compatible
 * transcription endpoint; `realtime` hands the whole conversation to an OpenAI-Realtime-
 * compatible speech model over WebSocket. Keys are never shown again once saved (`hasKey`);
 * a key omitted in a PUT is kept, "" clears it.
 */
import { join } from 'node:path';
import { badRequest } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { DEFAULT_TRANSCRIPTION_MODEL } from '../../speech/transcriber.ts';
import { createJsonDocument, type JsonDocument } from '../../store/json-document.ts';

export interface RealtimeConfig {
  url: string;
  model: string;
  voice: string;
  key?: string;
}

export interface TranscriptionConfig {
  /** Base URL of an OpenAI-compatible API (…/v1); POST <url>/audio/transcriptions. */
  url: string;
  model: string;
  key?: string;
}

export interface VoiceConfig {
  provider: 'offline' | 'realtime';
  realtime: RealtimeConfig | null;
  transcription: TranscriptionConfig | null;
}

export interface VoiceSettingsView {
  provider: 'offline' | 'realtime';
  realtime: { url: string; model: string; voice: string; hasKey: boolean } | null;
  transcription: { url: string; model: string; hasKey: boolean } | null;
}

export const REALTIME_DEFAULTS = Object.freeze({
  url: 'wss://api.openai.com/v1/realtime',
  model: 'gpt-4o-realtime-preview',
  voice: 'alloy',
});

const EMPTY: VoiceConfig = Object.freeze({ provider: 'offline', realtime: null, transcription: null }) as VoiceConfig;

const str = (v: unknown, max = 500): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

function url(value: unknown, field: string, schemes: string[]): string {
  if (!str(value, 2000)) throw badRequest(`${field} must be a URL`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw badRequest(`${field} must be a URL`);
  }
  if (!schemes.includes(parsed.protocol)) throw badRequest(`${field} must start with ${schemes.join(' or ')}//`);
  return value.replace(/\/+$/, '');
}

function optionalText(value: unknown, field: string, fallback: string): string {
  if (value === undefined || value === null || value === '') return fallback;
  if (!str(value, 200)) throw badRequest(`${field} must be a string of at most 200 characters`);
  return value;
}

/** A key from the body: undefined keeps the stored one (same endpoint only), "" clears it. */
function nextKey(value: unknown, field: string, stored: string | undefined, sameEndpoint: boolean): string | undefined {
  if (value === undefined) return sameEndpoint ? stored : undefined;
  if (value === '' || value === null) return undefined;
  if (!str(value, 1000)) throw badRequest(`${field} must be a string of at most 1000 characters`);
  return value;
}

function section(raw: unknown, field: string): Record<string, unknown> | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`${field} must be an object or null`);
  return raw as Record<string, unknown>;
}

export function mergeVoiceConfig(current: VoiceConfig, raw: unknown): VoiceConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('body must be a JSON object');
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body))
    if (!['provider', 'realtime', 'transcription'].includes(key)) throw badRequest(`unknown field ${key}`);
  if (body.provider !== undefined && body.provider !== 'offline' && body.provider !== 'realtime')
    throw badRequest('provider must be offline or realtime');
  let realtime = current.realtime;
  const rt = section(body.realtime, 'realtime');
  if (rt === null) realtime = null;
  else if (rt) {
    const next = url(rt.url ?? realtime?.url ?? REALTIME_DEFAULTS.url, 'realtime.url', ['ws:', 'wss:']);
    const key = nextKey(rt.key, 'realtime.key', realtime?.key, next === realtime?.url);
    realtime = {
      url: next,
      model: optionalText(rt.model, 'realtime.model', realtime?.model ?? REALTIME_DEFAULTS.model),
      voice: optionalText(rt.voice, 'realtime.voice', realtime?.voice ?? REALTIME_DEFAULTS.voice),
      ...(key ? { key } : {}),
    };
  }
  let transcription = current.transcription;
  const tr = section(body.transcription, 'transcription');
  if (tr === null) transcription = null;
  else if (tr) {
    const next = url(tr.url ?? transcription?.url, 'transcription.url', ['http:', 'https:']);
    const key = nextKey(tr.key, 'transcription.key', transcription?.key, next === transcription?.url);
    transcription = {
      url: next,
      model: optionalText(tr.model, 'transcription.model', transcription?.model ?? DEFAULT_TRANSCRIPTION_MODEL),
      ...(key ? { key } : {}),
    };
  }
  const provider = (body.provider as VoiceConfig['provider'] | undefined) ?? current.provider;
  if (provider === 'realtime' && !realtime) throw badRequest('realtime needs realtime.url (and usually realtime.key)');
  return { provider, realtime, transcription };
}

function validate(u: unknown): VoiceConfig | undefined {
  try {
    return mergeVoiceConfig(EMPTY, u);
  } catch {
    return undefined;
  }
}

export function viewOf(config: VoiceConfig): VoiceSettingsView {
  return {
    provider: config.provider,
    realtime: config.realtime
      ? {
          url: config.realtime.url,
          model: config.realtime.model,
          voice: config.realtime.voice,
          hasKey: Boolean(config.realtime.key),
        }
      : null,
    transcription: config.transcription
      ? { url: config.transcription.url, model: config.transcription.model, hasKey: Boolean(config.transcription.key) }
      : null,
  };
}

export interface VoiceSettings {
  load(): Promise<void>;
  current(): VoiceConfig;
  view(): VoiceSettingsView;
  update(raw: unknown): Promise<VoiceSettingsView>;
}

export function createVoiceSettings(options: { dataDir: string; log: Log }): VoiceSettings {
  const doc: JsonDocument<VoiceConfig> = createJsonDocument({
    file: join(options.dataDir, 'wheeled-voice.json'),
    defaults: () => ({ ...EMPTY }),
    validate,
    log: options.log,
  });
  return {
    load: async () => void (await doc.load()),
    current: () => doc.get(),
    view: () => viewOf(doc.get()),
    async update(raw) {
      const next = await doc.update((current) => mergeVoiceConfig(current, raw));
      options.log.info('voice settings saved', { provider: next.provider });
      return viewOf(next);
    },
  };
}
