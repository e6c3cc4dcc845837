/**
 * What the dashboard shows of the messenger: its state and a line of detail, which bot it is,
 * whether it is pairing, the chats seen lately (allow one with a click), and problems. The same
 * state is the `messenger` line of the state object's services.
 */
import type { ServiceState } from '../../contract/state.ts';
import type { Stamped } from '../voice/voice-status.ts';
import type { SeenChat } from './messenger-state.ts';

/** no_token: enabled without a token; pairing: polling with no chat allowed yet. */
export type MessengerLink = 'off' | 'no_token' | 'starting' | 'pairing' | 'listening' | 'failed';

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

export function messengerService(status: MessengerStatus): ServiceState {
  const detail = `messenger: ${status.detail}`;
  if (status.state === 'off') return { state: 'off', detail };
  if (status.state === 'paused') return { state: 'paused', detail };
  if (status.state === 'failed' || status.state === 'no_token') return { state: 'stopped', detail };
  return { state: 'running', detail };
}
