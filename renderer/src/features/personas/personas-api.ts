/**
 * The voice listener and messenger bot as the dashboard reads and edits them
 * (server/personas/README-personas.md): the shapes of GET /api/console/personas, checked at the
 * edge, and the calls of the personas card. Secrets go up in a PUT and never come back: the
 * views say hasKey / hasToken.
 */
import type {
  MessengerPersonaView,
  MessengerStatus,
  PersonasView,
  SeenChat,
  Stamped,
  VoicePersonaView,
  VoiceStatus,
} from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

type Rec = Record<string, unknown>;
const rec = (u: unknown): Rec => (typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Rec) : {});
const str = (u: unknown, fallback = ''): string => (typeof u === 'string' ? u : fallback);
const num = (u: unknown): number => (typeof u === 'number' && Number.isFinite(u) ? u : 0);
const strOrNull = (u: unknown): string | null => (typeof u === 'string' ? u : null);
const stamped = (u: unknown): Stamped | null => {
  const r = rec(u);
  return typeof r.text === 'string' ? { text: r.text, at: str(r.at) } : null;
};

export function readVoice(u: unknown): VoicePersonaView | null {
  const settings = rec(rec(u).settings);
  const status = rec(rec(u).status);
  if (typeof settings.enabled !== 'boolean' || typeof status.state !== 'string') return null;
  const t = rec(settings.transcription);
  return {
    settings: {
      enabled: settings.enabled,
      source: str(settings.source, 'device'),
      muted: settings.muted === true,
      transcription: {
        baseUrl: str(t.baseUrl),
        model: str(t.model),
        language: str(t.language),
        hasKey: t.hasKey === true,
      },
    },
    status: {
      // Taken as the cockpit sent it: the screens show any state by its detail line.
      state: status.state as VoiceStatus['state'],
      detail: str(status.detail),
      source: strOrNull(status.source),
      utterances: num(status.utterances),
      lastTranscript: stamped(status.lastTranscript),
      lastError: stamped(status.lastError),
      failures: num(status.failures),
      retryAt: strOrNull(status.retryAt),
    },
  };
}

function readChats(u: unknown): SeenChat[] {
  if (!Array.isArray(u)) return [];
  return u.flatMap((c) => {
    const r = rec(c);
    if (typeof r.id !== 'number') return [];
    return [
      { id: r.id, title: str(r.title, String(r.id)), type: str(r.type), lastText: str(r.lastText), at: str(r.at) },
    ];
  });
}

export function readMessenger(u: unknown): MessengerPersonaView | null {
  const settings = rec(rec(u).settings);
  const status = rec(rec(u).status);
  if (typeof settings.enabled !== 'boolean' || typeof status.state !== 'string') return null;
  const bot = rec(status.bot);
  return {
    settings: {
      enabled: settings.enabled,
      apiBaseUrl: str(settings.apiBaseUrl),
      hasToken: settings.hasToken === true,
      allowedChats: Array.isArray(settings.allowedChats)
        ? settings.allowedChats.filter((c): c is number => typeof c === 'number')
        : [],
    },
    status: {
      state: status.state as MessengerStatus['state'],
      detail: str(status.detail),
      bot: typeof bot.name === 'string' ? { username: strOrNull(bot.username), name: bot.name } : null,
      pairing: status.pairing === true,
      seenChats: readChats(status.seenChats),
      handled: num(status.handled),
      lastError: stamped(status.lastError),
      failures: num(status.failures),
      retryAt: strOrNull(status.retryAt),
    },
  };
}

export function readPersonas(u: unknown): PersonasView | null {
  const voice = readVoice(rec(u).voice);
  const messenger = readMessenger(rec(u).messenger);
  return voice && messenger ? { voice, messenger } : null;
}

export interface PersonasApi {
  load(): Promise<ApiResult<PersonasView | null>>;
  saveVoice(body: object): Promise<ApiResult<VoicePersonaView | null>>;
  saveMessenger(body: object): Promise<ApiResult<MessengerPersonaView | null>>;
  allowChat(chatId: number): Promise<ApiResult<MessengerPersonaView | null>>;
  removeChat(chatId: number): Promise<ApiResult<MessengerPersonaView | null>>;
}

async function mapped<U>(call: Promise<ApiResult<unknown>>, map: (data: unknown) => U): Promise<ApiResult<U>> {
  const result = await call;
  return result.ok ? { ...result, data: map(result.data) } : result;
}

export function createPersonasApi(http: HttpClient): PersonasApi {
  const base = '/api/console/personas';
  return {
    load: () => mapped(http.request<unknown>(base), readPersonas),
    saveVoice: (body) => mapped(http.request<unknown>(`${base}/voice`, { method: 'PUT', body }), readVoice),
    saveMessenger: (body) => mapped(http.request<unknown>(`${base}/messenger`, { method: 'PUT', body }), readMessenger),
    allowChat: (chatId) =>
      mapped(http.request<unknown>(`${base}/messenger/chats`, { method: 'POST', body: { chatId } }), readMessenger),
    removeChat: (chatId) =>
      mapped(
        http.request<unknown>(`${base}/messenger/chats/${encodeURIComponent(String(chatId))}`, { method: 'DELETE' }),
        readMessenger,
      ),
  };
}
