/**
 * The messages between the desktop shell and the cockpit server, which runs in a process of its
 * own (Electron's utility process) so a crash of the server costs a restart, not the app. The
 * window needs nothing of this: it is a dashboard talking HTTP and WebSocket to the server.
 * Only what the tray, the notifications and the window's session need crosses here: a snapshot
 * pushed once a second, platform notices, the tray's robot actions and the window session.
 *
 * Every message is plain data (structured-clone safe); a failed call comes back as its message.
 */
import type { PlatformNotice } from '../../platform-client/index.ts';
import type { CockpitSnapshot } from './tray-model.ts';
import type { IssuedSession } from './window-session.ts';

/** What the shell asks of the server. The robot actions run as the tray credential. */
export type LinkCall =
  | { method: 'wake' | 'sleep' | 'stop' | 'resume' }
  | { method: 'demo'; on: boolean }
  | { method: 'platform-connect' | 'platform-disconnect' }
  | { method: 'create-window-session'; ttlSeconds: number }
  | { method: 'save-recording'; minutes: number }
  | { method: 'destroy-session'; id: string };

export type ToServer =
  | { kind: 'call'; id: number; call: LinkCall }
  | { kind: 'shutdown' }
  /** A spare process (main/supervisor.ts): start serving now. */
  | { kind: 'go' };

/** Where the server listens and what it runs, once it is up. */
export interface ServerReady {
  port: number;
  host: string;
  dataDir: string;
  simulated: boolean;
  daemonUrl: string;
}

export type FromServer =
  | ({ kind: 'ready' } & ServerReady)
  /** A spare has loaded and waits for 'go'. */
  | { kind: 'standby' }
  | { kind: 'snapshot'; snapshot: CockpitSnapshot; remoteAddress: string | null }
  | { kind: 'notice'; notification: PlatformNotice }
  /** A firmware update was installed: the app should restart itself. */
  | { kind: 'relaunch' }
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: string };

/** Replies the shell reads (the rest it ignores). */
export interface CallResults {
  stop: { daemon: { ok: boolean; error?: string } };
  'create-window-session': IssuedSession;
  'save-recording': { name: string };
}

/** A rough shape check of what arrives, since the other side is a separate program. */
export function isFromServer(message: unknown): message is FromServer {
  return typeof message === 'object' && message !== null && typeof (message as { kind?: unknown }).kind === 'string';
}

export function isToServer(message: unknown): message is ToServer {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as { kind?: unknown; id?: unknown; call?: { method?: unknown } };
  return m.kind === 'shutdown' || m.kind === 'go' || (m.kind === 'call' && typeof m.id === 'number' && typeof m.call?.method === 'string');
}
