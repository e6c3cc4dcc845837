/**
 * The dashboard's one socket to the cockpit (/ws). It reconnects on its own with capped backoff
 * and reports what it is doing as a presence, so screens draw connection trouble from presence
 * rather than from caught exceptions (docs/architecture.md, "House style").
 */
import type { ServerFrame } from '../../../../server/contract/index.ts';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED } from './close-codes.ts';
import { parseFrame } from './parse-frame.ts';

export type SocketPresence = 'connecting' | 'connected' | 'reconnecting' | 'down' | 'unauthorized';

/** The part of the browser WebSocket this client uses; tests hand in a fake. */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  /** Set to `arraybuffer` when binary frames are wanted (the browser's default is `blob`). */
  binaryType?: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface PresenceChange {
  presence: SocketPresence;
  /** When the next attempt starts (Date.now() clock), while reconnecting or down. */
  retryAt: number | null;
}

export interface StateSocketOptions {
  url: string;
  onFrame: (frame: ServerFrame) => void;
  /** Binary messages (camera pictures, server/camera/README-camera.md); text frames stay JSON. */
  onBinary?: (data: ArrayBuffer) => void;
  onPresence: (change: PresenceChange) => void;
  /** Consecutive failed attempts after which the server counts as down (retries go on). */
  downAfter?: number;
  backoff?: BackoffPolicy;
  createSocket?: (url: string) => SocketLike;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
}

export interface StateSocket {
  /** Sends one JSON message while the socket is open; false (and nothing sent) otherwise. */
  send(message: object): boolean;
  /** Skip the wait and try again at once (a Retry button, the browser coming back online). */
  retryNow(): void;
  /** Close for good; no presence is reported after this. */
  close(): void;
}

export function createStateSocket(options: StateSocketOptions): StateSocket {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const now = options.now ?? Date.now;
  const downAfter = options.downAfter ?? 4;

  // Every attempt gets a generation; events of an older socket are ignored, so a late close of
  // a replaced socket can never overwrite the state of the live one (the Viam generation idea).
  let generation = 0;
  let failures = 0;
  let socket: SocketLike | null = null;
  let open = false;
  let timer: unknown = null;
  let stopped = false;

  const report = (presence: SocketPresence, retryAt: number | null = null) => {
    if (!stopped) options.onPresence({ presence, retryAt });
  };

  function connect(): void {
    timer = null;
    const mine = ++generation;
    const ws = createSocket(options.url);
    socket = ws;
    open = false;
    if (options.onBinary) ws.binaryType = 'arraybuffer';
    // The cockpit accepts every socket and closes a refused one with 4401 right away, so an
    // open socket proves nothing; the first message does. Reporting 'connected' only then keeps
    // features that fetch on connect from firing 401s (console errors) on a refused credential.
    let accepted = false;
    ws.onopen = () => {
      if (mine !== generation) return;
      open = true;
    };
    ws.onmessage = (event) => {
      if (mine !== generation) return;
      if (!accepted) {
        accepted = true;
        failures = 0;
        report('connected');
      }
      if (event.data instanceof ArrayBuffer) return options.onBinary?.(event.data);
      const frame = parseFrame(event.data);
      if (frame) options.onFrame(frame);
    };
    ws.onclose = (event) => {
      if (mine !== generation) return;
      socket = null;
      open = false;
      // A refused credential will not get better by retrying; the sign-in card takes over.
      if (event.code === CLOSE_UNAUTHORIZED || event.code === CLOSE_FORBIDDEN) return report('unauthorized');
      failures += 1;
      scheduleRetry();
    };
  }

  function scheduleRetry(): void {
    const delay = backoffDelay(failures - 1, options.backoff ?? DEFAULT_BACKOFF);
    report(failures >= downAfter ? 'down' : 'reconnecting', now() + delay);
    timer = setTimer(connect, delay);
  }

  report('connecting');
  connect();

  return {
    send(message) {
      if (!open || socket === null) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
    retryNow() {
      if (stopped || timer === null) return;
      clearTimer(timer);
      report('connecting');
      connect();
    },
    close() {
      stopped = true;
      generation += 1;
      if (timer !== null) clearTimer(timer);
      timer = null;
      socket?.close(1000, 'dashboard closed');
      socket = null;
      open = false;
    },
  };
}
