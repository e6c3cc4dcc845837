/**
 * The wheeled dashboard's two sockets: /ws/state (the base, for the map and readouts) and
 * /ws/chat (chat turns and drive frames). Both reconnect by themselves (lib/api/state-socket.ts);
 * a socket refused with 4401 asks the session for a fresh JWT and opens again with it. Screens
 * draw connection trouble from `presence`, never from caught exceptions.
 */
import { getContext, setContext } from 'svelte';
import type { ChatServerFrame, WheeledState } from '../../../../server/contract/wheeled.ts';
import { createStateSocket, type SocketPresence, type StateSocket } from '../../lib/api/state-socket.ts';
import { applyFrame, isStreaming, startTurn, type ChatEntry } from './chat-stream.ts';
import type { DriveMessage } from './drive-loop.ts';
import { extendTrail } from './map-geometry.ts';
import { socketUrl } from './wheeled-api.ts';
import type { WheeledSession } from './wheeled-session.svelte.ts';

export class WheeledLink {
  presence = $state<SocketPresence>('connecting');
  chatPresence = $state<SocketPresence>('connecting');
  base = $state<WheeledState | null>(null);
  trail = $state<Array<[number, number]>>([]);
  chat = $state<ChatEntry[]>([]);
  /** The last refused drive frame's reason, cleared by the next accepted one. */
  driveProblem = $state<string | null>(null);
  readonly streaming = $derived(isStreaming(this.chat));
  #state: StateSocket | undefined;
  #chat: StateSocket | undefined;
  readonly #session: WheeledSession;

  constructor(session: WheeledSession) {
    this.#session = session;
    this.#openState();
    this.#openChat();
  }

  sendChat(text: string): boolean {
    if (!this.#chat?.send({ type: 'chat', text })) return false;
    this.chat = startTurn(this.chat, text);
    return true;
  }

  sendDrive(message: DriveMessage): boolean {
    return this.#chat?.send(message) ?? false;
  }

  close(): void {
    this.#state?.close();
    this.#chat?.close();
  }

  #url(name: 'state' | 'chat'): string | null {
    const token = this.#session.token;
    return token ? socketUrl(window.location, name, token) : null;
  }

  /** 4401: the JWT ran out while the socket was away; one refresh, then a new socket. */
  #refused(reopen: () => void): void {
    if (this.#session.token === null) return;
    void this.#session.refresh().then((ok) => ok && reopen());
  }

  #openState(): void {
    const url = this.#url('state');
    if (!url) return;
    this.#state = createStateSocket({
      url,
      onFrame: (frame) => {
        if (frame.type !== 'state') return;
        const state = frame as unknown as WheeledState;
        this.base = state;
        this.trail = state.trail ? [...state.trail] : extendTrail(this.trail, state.pose.x, state.pose.y);
      },
      onPresence: ({ presence }) => {
        this.presence = presence;
        if (presence === 'unauthorized') this.#refused(() => this.#openState());
      },
    });
  }

  #openChat(): void {
    const url = this.#url('chat');
    if (!url) return;
    this.#chat = createStateSocket({
      url,
      onFrame: (raw) => {
        const frame = raw as unknown as ChatServerFrame;
        if (frame.type === 'control_ack') this.driveProblem = frame.ok ? null : (frame.error ?? 'refused');
        else if (frame.type !== 'pong') this.chat = applyFrame(this.chat, frame);
      },
      onPresence: ({ presence }) => {
        this.chatPresence = presence;
        if (presence === 'unauthorized') this.#refused(() => this.#openChat());
      },
    });
  }
}

const KEY = Symbol('wheeled-link');

export function provideLink(session: WheeledSession): WheeledLink {
  const link = new WheeledLink(session);
  setContext(KEY, link);
  return link;
}

export function useLink(): WheeledLink {
  const link = getContext<WheeledLink | undefined>(KEY);
  if (!link) throw new Error('useLink() needs provideLink() in WheeledDashboard.svelte');
  return link;
}
