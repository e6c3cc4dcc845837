/** Frames sent on the /ws socket of the desktop server. */
import type { RobotState } from './state.ts';

export interface StateFrame extends RobotState {
  type: 'state';
}

export interface EventFrame {
  type: 'event';
  id: number;
  time: string;
  /** What happened, e.g. `look`. */
  action: string;
  text: string;
  values?: Record<string, unknown>;
  /** Which kind of credential asked: owner token, passkey session, loopback, or the robot itself. */
  credential: CredentialKind;
}

export type CredentialKind = 'token' | 'passkey' | 'loopback' | 'local-window' | 'system';

export type ServerFrame = StateFrame | EventFrame | { type: string; [key: string]: unknown };
