/**
 * Pure helpers of the personas card: status lines with a moving retry countdown, the chats
 * waiting to be allowed, and the settings forms as drafts turned into PUT bodies (a secret is
 * sent only when typed, or "" to clear it: omitted keeps the stored one).
 */
import type { MessengerPersonaView, SeenChat, VoicePersonaView } from '../../../../server/contract/index.ts';

export type SecretAction = 'keep' | 'replace' | 'clear';

export interface VoiceDraft {
  source: string;
  baseUrl: string;
  model: string;
  language: string;
  key: string;
  keyAction: SecretAction;
}

export interface MessengerDraft {
  apiBaseUrl: string;
  token: string;
  tokenAction: SecretAction;
}

/** `Retrying in 12 s` style suffix while a restart is scheduled. */
export function retryText(retryAt: string | null, now: number): string {
  if (!retryAt) return '';
  const seconds = Math.max(0, Math.ceil((Date.parse(retryAt) - now) / 1000));
  return Number.isFinite(seconds) ? `next try in ${seconds} s` : '';
}

export function statusLine(status: { detail: string; state: string; retryAt: string | null }, now: number): string {
  // The detail already says "retrying in N s" from when it failed; the countdown replaces it.
  const detail = status.state === 'failed' ? status.detail.replace(/; retrying in \d+ s$/, '') : status.detail;
  const retry = status.state === 'failed' ? retryText(status.retryAt, now) : '';
  return retry ? `${detail} (${retry})` : detail;
}

/** Chats that wrote to the bot and are not allowed yet, newest first. */
export function waitingChats(view: MessengerPersonaView): SeenChat[] {
  return view.status.seenChats.filter((c) => !view.settings.allowedChats.includes(c.id));
}

/** A name for an allowed chat: its title when the bot has seen it, else the bare id. */
export function chatName(id: number, seen: SeenChat[]): string {
  const chat = seen.find((c) => c.id === id);
  return chat ? `${chat.title} (${id})` : String(id);
}

export function voiceDraft(settings: VoicePersonaView['settings']): VoiceDraft {
  const t = settings.transcription;
  return {
    source: settings.source,
    baseUrl: t.baseUrl,
    model: t.model,
    language: t.language,
    key: '',
    keyAction: 'keep',
  };
}

export function voiceBody(draft: VoiceDraft): object {
  const transcription: Record<string, string> = {
    baseUrl: draft.baseUrl.trim(),
    model: draft.model.trim(),
    language: draft.language.trim(),
  };
  if (draft.keyAction === 'replace' && draft.key !== '') transcription.key = draft.key;
  if (draft.keyAction === 'clear') transcription.key = '';
  return { source: draft.source.trim(), transcription };
}

export function messengerDraft(settings: MessengerPersonaView['settings']): MessengerDraft {
  return { apiBaseUrl: settings.apiBaseUrl, token: '', tokenAction: 'keep' };
}

export function messengerBody(draft: MessengerDraft): object {
  const body: Record<string, string> = { apiBaseUrl: draft.apiBaseUrl.trim() };
  if (draft.tokenAction === 'replace' && draft.token.trim() !== '') body.token = draft.token.trim();
  if (draft.tokenAction === 'clear') body.token = '';
  return body;
}

/** A hint for the source field; null when it looks like one of the accepted forms. */
export function sourceProblem(source: string): string | null {
  const s = source.trim();
  if (s === 'daemon' || s === 'device' || /^(device|alsa|pulse|file):.+/.test(s)) return null;
  return 'Use daemon, device, device:<name>, alsa:<name>, pulse:<name> or file:<path>.';
}

/** The source menu: the two common choices by name, anything else typed in. */
export type SourceChoice = 'daemon' | 'device' | 'other';

export const SOURCE_CHOICES: readonly { value: SourceChoice; label: string }[] = [
  { value: 'daemon', label: 'Robot microphone (daemon)' },
  { value: 'device', label: "This computer's default microphone" },
  { value: 'other', label: 'Another capture device or a file…' },
];

export function sourceChoice(source: string): SourceChoice {
  const s = source.trim();
  return s === 'daemon' || s === 'device' ? s : 'other';
}

/** The source a menu choice stands for; `other` keeps what was typed (empty when it was a named choice). */
export function sourceFor(choice: SourceChoice, current: string): string {
  if (choice !== 'other') return choice;
  return sourceChoice(current) === 'other' ? current : '';
}
