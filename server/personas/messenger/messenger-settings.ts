/**
 * The messenger persona's settings, edited from the dashboard and stored in
 * `<data dir>/messenger-persona.json` (atomic, 0600; docs/architecture.md, "Configuration and persistence"). OFF by default.
 * The bot token stays here: the view says `hasToken`, never the token, and a token is kept
 * across edits only while the API it is sent to stays the same. While `allowedChats` is empty
 * the bot is in pairing mode (docs/platform.md, "Messaging-bot channel").
 */
import type { MessengerSettingsView } from '../../contract/personas.ts';
import { badRequest } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { createJsonDocument, type JsonDocument } from '../../store/json-document.ts';
import { httpUrl, nextSecret, objectBody, optionalBool, optionalText } from '../../http/settings-input.ts';
import { DEFAULT_BOT_API } from './bot-api.ts';
import { isChatId } from './bot-updates.ts';

export interface MessengerConfig {
  enabled: boolean;
  apiBaseUrl: string;
  token?: string;
  allowedChats: number[];
}

export interface MessengerSettings {
  load(): Promise<void>;
  current(): MessengerConfig;
  view(): MessengerSettingsView;
  /** `{enabled?, apiBaseUrl?, token?}`; 400 naming the field. */
  update(raw: unknown): Promise<MessengerConfig>;
  allowChat(id: number): Promise<MessengerConfig>;
  removeChat(id: number): Promise<MessengerConfig>;
}

export const MESSENGER_DEFAULTS: MessengerConfig = Object.freeze({
  enabled: false,
  apiBaseUrl: DEFAULT_BOT_API,
  allowedChats: Object.freeze([]) as unknown as number[],
});

/** The token goes into the URL path (`/bot<token>/…`): nothing that could leave that segment. */
const TOKEN = /^[A-Za-z0-9:_-]{1,200}$/;
const MAX_CHATS = 50;

function validate(u: unknown): MessengerConfig | undefined {
  const d = u as Partial<MessengerConfig> | null;
  const ok =
    typeof d?.enabled === 'boolean' &&
    typeof d.apiBaseUrl === 'string' &&
    (d.token === undefined || typeof d.token === 'string') &&
    Array.isArray(d.allowedChats) &&
    d.allowedChats.every(isChatId);
  return ok ? (d as MessengerConfig) : undefined;
}

export function mergeMessengerConfig(stored: MessengerConfig, raw: unknown): MessengerConfig {
  const body = objectBody(raw, ['enabled', 'apiBaseUrl', 'token']);
  const typedUrl = optionalText(body, 'apiBaseUrl', 500);
  const apiBaseUrl =
    typedUrl === undefined ? stored.apiBaseUrl : typedUrl === '' ? DEFAULT_BOT_API : httpUrl(typedUrl, 'apiBaseUrl');
  const typedToken = optionalText(body, 'token', 200);
  if (typedToken && !TOKEN.test(typedToken))
    throw badRequest('token must be the bot token from its creator, e.g. 123456:ABC-DEF…');
  const token = nextSecret(typedToken, stored.token, apiBaseUrl === stored.apiBaseUrl);
  return {
    enabled: optionalBool(body, 'enabled') ?? stored.enabled,
    apiBaseUrl,
    ...(token ? { token } : {}),
    allowedChats: stored.allowedChats,
  };
}

export function createMessengerSettings(deps: { file: string; log: Log }): MessengerSettings {
  const doc: JsonDocument<MessengerConfig> = createJsonDocument({
    file: deps.file,
    defaults: () => MESSENGER_DEFAULTS,
    validate,
    log: deps.log,
  });
  const chats = (fn: (ids: number[]) => number[]) =>
    doc.update((c) => ({ ...c, allowedChats: fn([...c.allowedChats]) }));
  return {
    load: async () => void (await doc.load()),
    current: () => doc.get(),
    view() {
      const c = doc.get();
      return {
        enabled: c.enabled,
        apiBaseUrl: c.apiBaseUrl,
        hasToken: Boolean(c.token),
        allowedChats: [...c.allowedChats],
      };
    },
    update: (raw) => doc.update((stored) => mergeMessengerConfig(stored, raw)),
    allowChat(id) {
      if (!isChatId(id)) return Promise.reject(badRequest('chatId must be a non-zero integer chat id'));
      return chats((ids) => {
        if (ids.includes(id)) return ids;
        if (ids.length >= MAX_CHATS) throw badRequest(`at most ${MAX_CHATS} chats may be allowed`);
        return [...ids, id];
      });
    },
    removeChat: (id) => chats((ids) => ids.filter((c) => c !== id)),
  };
}
