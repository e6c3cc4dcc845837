/**
 * What the messenger remembers between runs, in `<data dir>/messenger-state.json` (atomic,
 * 0600): the committed update offset, per bot, and the chats seen lately (so the owner can
 * allow one from the dashboard). The offset is committed BEFORE an update is handled: a crash
 * mid-turn loses that one message rather than handling it twice (a robot that moves twice for
 * one request is the worse failure; the platform's channel makes the same choice with its
 * compare-and-swap, docs/platform.md, "Messaging-bot channel"). Offsets belong to one bot, so
 * another token starts from the bot's own queue (the key is a hash: no secret on disk twice).
 */
import { createHash } from 'node:crypto';
import type { SeenChat } from '../../contract/personas.ts';
import type { Log } from '../../log.ts';
import { createJsonDocument, type JsonDocument } from '../../store/json-document.ts';
import type { BotChat } from './bot-api.ts';
import { isChatId } from './bot-updates.ts';

interface StateDoc {
  bot: string;
  offset: number;
  seen: SeenChat[];
}

export interface MessengerState {
  load(): Promise<void>;
  /** The offset to poll with for this bot (0 for a bot not seen before). */
  offset(bot: string): number;
  /** Durable once resolved. */
  commit(bot: string, offset: number): Promise<void>;
  saw(bot: string, chat: BotChat, text: string, at: Date): Promise<void>;
  seen(bot: string): SeenChat[];
}

const MAX_SEEN = 20;

export function botKey(apiBaseUrl: string, token: string): string {
  return createHash('sha256').update(`${apiBaseUrl}\n${token}`).digest('hex').slice(0, 16);
}

export function chatTitle(chat: BotChat): string {
  const name = [chat.first_name, chat.last_name].filter(Boolean).join(' ');
  return chat.title ?? (name || (chat.username ? `@${chat.username}` : String(chat.id)));
}

function validate(u: unknown): StateDoc | undefined {
  const d = u as Partial<StateDoc> | null;
  const ok =
    typeof d?.bot === 'string' &&
    Number.isSafeInteger(d.offset) &&
    Array.isArray(d.seen) &&
    d.seen.every((s) => isChatId(s?.id) && typeof s.title === 'string' && typeof s.at === 'string');
  return ok ? (d as StateDoc) : undefined;
}

export function createMessengerState(deps: { file: string; log: Log }): MessengerState {
  const doc: JsonDocument<StateDoc> = createJsonDocument({
    file: deps.file,
    defaults: () => ({ bot: '', offset: 0, seen: [] }),
    validate,
    log: deps.log,
  });
  const mine = (bot: string, d: StateDoc): StateDoc => (d.bot === bot ? d : { bot, offset: 0, seen: [] });
  return {
    load: async () => void (await doc.load()),
    offset: (bot) => mine(bot, doc.get()).offset,
    async commit(bot, offset) {
      await doc.update((d) => ({ ...mine(bot, d), offset: Math.max(offset, mine(bot, d).offset) }));
    },
    async saw(bot, chat, text, at) {
      const entry: SeenChat = {
        id: chat.id,
        title: chatTitle(chat),
        type: chat.type,
        lastText: text.slice(0, 80),
        at: at.toISOString(),
      };
      await doc.update((d) => {
        const own = mine(bot, d);
        return { ...own, seen: [entry, ...own.seen.filter((s) => s.id !== chat.id)].slice(0, MAX_SEEN) };
      });
    },
    seen: (bot) => mine(bot, doc.get()).seen.map((s) => ({ ...s })),
  };
}
