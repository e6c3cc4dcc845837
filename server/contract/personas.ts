/**
 * The voice listener and the messenger bot as GET /api/console/personas shows them
 * (server/personas/README-personas.md): each one's settings view and status. Secrets go up in a
 * PUT and never come back: the views say hasKey / hasToken. The same states are the `voice` and
 * `messenger` lines of the state object's services. Declared once for the cockpit and the
 * dashboard (docs/contract.md).
 */

/** A line of text and when it was written (ISO time). */
export interface Stamped {
  text: string;
  at: string;
}

/**
 * The microphone side: off, muted or paused by the owner, opening, open, open but sending no
 * audio for a while (`no_audio`), failed, or run out.
 */
export type LinkState = 'off' | 'muted' | 'paused' | 'starting' | 'listening' | 'no_audio' | 'failed' | 'ended';

/** The step of an utterance being handled. */
export type TurnPhase = 'transcribing' | 'thinking' | 'speaking';

export type VoiceState = LinkState | TurnPhase;

/** Where speech is sent to be written down (both servers' voice settings); the key only as `hasKey`. */
export interface TranscriptionView {
  baseUrl: string;
  model: string;
  language: string;
  hasKey: boolean;
}

export interface VoiceSettingsView {
  enabled: boolean;
  source: string;
  muted: boolean;
  transcription: TranscriptionView;
}

export interface VoiceStatus {
  state: VoiceState;
  detail: string;
  /** The audio source in use (or last tried), e.g. `microphone default (alsa)`. */
  source: string | null;
  utterances: number;
  lastTranscript: Stamped | null;
  lastError: Stamped | null;
  /** Failures since the listener last ran for a minute. */
  failures: number;
  /** ISO time of the next restart, while one is scheduled. */
  retryAt: string | null;
}

/** no_token: enabled without a token; pairing: polling with no chat allowed yet. */
export type MessengerLink = 'off' | 'no_token' | 'starting' | 'pairing' | 'listening' | 'failed';

export interface MessengerSettingsView {
  enabled: boolean;
  apiBaseUrl: string;
  hasToken: boolean;
  allowedChats: number[];
}

/** A chat that wrote to the bot lately. */
export interface SeenChat {
  id: number;
  /** The chat's title, or the person's name, or @username. */
  title: string;
  type: string;
  /** The latest text, shortened. */
  lastText: string;
  /** ISO time. */
  at: string;
}

export interface MessengerStatus {
  state: MessengerLink | 'paused';
  detail: string;
  /** The bot as getMe describes it, once connected. */
  bot: { username: string | null; name: string } | null;
  pairing: boolean;
  seenChats: SeenChat[];
  /** Messages from allowed chats handled since start. */
  handled: number;
  lastError: Stamped | null;
  failures: number;
  retryAt: string | null;
}

export interface VoicePersonaView {
  settings: VoiceSettingsView;
  status: VoiceStatus;
}

export interface MessengerPersonaView {
  settings: MessengerSettingsView;
  status: MessengerStatus;
}

export interface PersonasView {
  voice: VoicePersonaView;
  messenger: MessengerPersonaView;
}
