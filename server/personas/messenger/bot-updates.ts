/**
 * getUpdates' result read at the edge: the bot API is someone else's, and what the messenger
 * takes from an update goes into its state document (the offset and the chats seen), which is
 * validated when it is loaded. An update id that is not a non-negative safe integer drops the
 * update (it would become the offset); a message whose chat has no usable id, or whose text is
 * not text, is dropped from its update, which is still confirmed (messenger-chaos.test.ts). The
 * shapes of the bot API the cockpit reads are declared here; bot-api.ts re-exports them.
 */
export interface BotUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface BotChat {
  id: number;
  type: string;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

export interface BotMessage {
  message_id: number;
  date: number;
  chat: BotChat;
  from?: BotUser;
  text?: string;
  caption?: string;
  photo?: Array<{ file_id: string; file_unique_id: string; width: number; height: number; file_size?: number }>;
}

export interface BotUpdate {
  update_id: number;
  message?: BotMessage;
}

/** Bot API chat ids are integers of at most 52 significant bits; groups are negative. */
export function isChatId(u: unknown): u is number {
  return typeof u === 'number' && Number.isSafeInteger(u) && u !== 0;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** The optional string members named, where they are strings (a title of another type is no title). */
function strings<K extends string>(raw: Json, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) if (typeof raw[key] === 'string') out[key] = raw[key];
  return out;
}

function readChat(raw: unknown): BotChat | undefined {
  if (!isObject(raw) || !isChatId(raw.id) || typeof raw.type !== 'string') return undefined;
  return { id: raw.id, type: raw.type, ...strings(raw, ['title', 'username', 'first_name', 'last_name'] as const) };
}

function readUser(raw: unknown): BotUser | undefined {
  if (!isObject(raw) || count(raw.id) === undefined || typeof raw.is_bot !== 'boolean') return undefined;
  if (typeof raw.first_name !== 'string') return undefined;
  return {
    id: raw.id as number,
    is_bot: raw.is_bot,
    first_name: raw.first_name,
    ...strings(raw, ['username'] as const),
  };
}

function readMessage(raw: unknown): BotMessage | undefined {
  if (!isObject(raw)) return undefined;
  const chat = readChat(raw.chat);
  // A text or caption of another type is not a message the robot can read.
  if (!chat || (raw.text !== undefined && typeof raw.text !== 'string')) return undefined;
  if (raw.caption !== undefined && typeof raw.caption !== 'string') return undefined;
  const from = readUser(raw.from);
  return {
    message_id: count(raw.message_id) ?? 0,
    ...(from ? { from } : {}),
    date: count(raw.date) ?? 0,
    chat,
    ...strings(raw, ['text', 'caption'] as const),
  };
}

/** The updates of a getUpdates result (a list, checked by the caller). */
export function readUpdates(result: readonly unknown[]): BotUpdate[] {
  return result.flatMap((raw) => {
    const id = isObject(raw) ? count(raw.update_id) : undefined;
    if (id === undefined) return [];
    const message = readMessage((raw as Json).message);
    return [message ? { update_id: id, message } : { update_id: id }];
  });
}
