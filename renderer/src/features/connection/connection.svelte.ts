/**
 * The live link to the cockpit: opens the state socket for the session's credential, keeps the last
 * state frame and the presences, and ticks a clock so ages and countdowns move between frames.
 * Other features hear the socket's other frames through listen() and send on it with send().
 * Provided by Dashboard.svelte (which exists only while signed in), read with useConnection().
 */
import { getContext, setContext } from 'svelte';
import type { ServerFrame, StateFrame } from '../../../../server/contract/index.ts';
import { stateSocketUrl } from '../../lib/api/socket-url.ts';
import { createStateSocket, type SocketPresence, type StateSocket } from '../../lib/api/state-socket.ts';
import type { Session } from '../../lib/state/session.svelte.ts';
import { describeLink, describeTrouble, type LinkStatus, type Trouble } from './link-status.ts';

const TICK_MS = 250;

export class Connection {
  presence = $state<SocketPresence>('connecting');
  retryAt = $state<number | null>(null);
  /** Replaced whole 15 times a second, never mutated, so it needs no deep proxy. */
  frame = $state.raw<StateFrame | null>(null);
  /** Date.now() when `frame` arrived. */
  receivedAt = $state(0);
  now = $state(Date.now());
  socket: StateSocket | null = null;
  #listeners: ((frame: ServerFrame) => void)[] = [];
  #binaryListeners: ((data: ArrayBuffer) => void)[] = [];

  /** How old the robot sample behind `frame` is now: its age on arrival plus the time since. */
  readonly ageMs = $derived(this.frame ? this.frame.ageMs + Math.max(0, this.now - this.receivedAt) : null);
  readonly #input = $derived({ socket: this.presence, daemon: this.frame?.daemon.presence ?? null, ageMs: this.ageMs });
  readonly link: LinkStatus = $derived(describeLink(this.#input));
  readonly trouble: Trouble | null = $derived(
    describeTrouble(this.#input, this.retryAt === null ? null : this.retryAt - this.now),
  );
  /** True when the values on screen are current; cards dim themselves otherwise. */
  readonly live = $derived(this.link.tone === 'ok');

  retryNow(): void {
    this.socket?.retryNow();
  }

  /** Sends one message on the socket; false when it is not open (nothing is queued). */
  send(message: object): boolean {
    return this.socket?.send(message) ?? false;
  }

  /** Hears every frame but the state frame (events, errors...); returns the unsubscribe. */
  listen(listener: (frame: ServerFrame) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  hear(frame: ServerFrame): void {
    for (const listener of this.#listeners) listener(frame);
  }

  /** Hears the socket's binary messages (camera pictures); returns the unsubscribe. */
  listenBinary(listener: (data: ArrayBuffer) => void): () => void {
    this.#binaryListeners = [...this.#binaryListeners, listener];
    return () => {
      this.#binaryListeners = this.#binaryListeners.filter((l) => l !== listener);
    };
  }

  hearBinary(data: ArrayBuffer): void {
    for (const listener of this.#binaryListeners) listener(data);
  }
}

const CONNECTION = Symbol('connection');

export function provideConnection(session: Session): Connection {
  const connection = new Connection();

  // A pre-effect runs as soon as it is created, while the dashboard's cards are still being
  // built, so the socket connects in parallel with that first render rather than after it.
  $effect.pre(() => {
    if (!session.signedIn) return;
    const socket = createStateSocket({
      url: stateSocketUrl(window.location, session.token),
      onFrame(frame) {
        if (frame.type !== 'state') return connection.hear(frame);
        connection.frame = frame as StateFrame;
        connection.receivedAt = Date.now();
      },
      onBinary: (data) => connection.hearBinary(data),
      onPresence({ presence, retryAt }) {
        connection.presence = presence;
        connection.retryAt = retryAt;
        if (presence === 'unauthorized') session.lost();
      },
    });
    connection.socket = socket;
    // A phone waking up or a laptop rejoining Wi-Fi should not wait out the backoff.
    const retry = () => socket.retryNow();
    const onVisible = () => document.visibilityState === 'visible' && retry();
    window.addEventListener('online', retry);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('online', retry);
      document.removeEventListener('visibilitychange', onVisible);
      socket.close();
      connection.socket = null;
    };
  });

  $effect(() => {
    const timer = setInterval(() => (connection.now = Date.now()), TICK_MS);
    return () => clearInterval(timer);
  });

  setContext(CONNECTION, connection);
  return connection;
}

export function useConnection(): Connection {
  const connection = getContext<Connection | undefined>(CONNECTION);
  if (!connection) throw new Error('useConnection() needs provideConnection() in an ancestor (Dashboard.svelte)');
  return connection;
}
