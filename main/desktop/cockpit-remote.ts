/**
 * The shell side of the desktop link (cockpit-link.ts): the cockpit as the tray, the alerts and
 * the window session see it, whichever server process is current. It outlives the processes:
 * when one dies its pending calls fail with a message, calls made while none runs fail at once
 * (the tray reports them), and the next process takes over when it says it is ready.
 */
import type { PlatformNotice } from '../../platform-client/index.ts';
import type { CallResults, FromServer, LinkCall, ServerReady, ToServer } from './cockpit-link.ts';
import type { TrayControl } from './tray-actions.ts';
import type { CockpitSnapshot } from './tray-model.ts';
import type { IssuedSession } from './window-session.ts';

export const NOT_RUNNING = 'the cockpit server is restarting; try again in a moment';

export interface CockpitRemote {
  /** Routes a message of the current server process. */
  receive(message: FromServer): void;
  /** A new process: `send` reaches it. Until it is ready, calls wait for nothing and fail. */
  attach(send: (message: ToServer) => void): void;
  /** The current process is gone: pending calls fail. */
  detach(reason: string): void;
  readonly control: TrayControl;
  readonly platform: { connect(): void; disconnect(): Promise<void> };
  /** The black box in the server's process: the tray's "Save last minutes". */
  readonly recordings: { saveLast(minutes: number): Promise<{ name: string }> };
  createWindowSession(ttlSeconds: number): Promise<IssuedSession>;
  destroySession(id: string): Promise<unknown>;
  /** The last snapshot pushed, and the LAN address then. */
  lastSnapshot(): CockpitSnapshot | undefined;
  remoteAddress(): string | undefined;
  onReady(listener: (ready: ServerReady) => void): void;
  onSnapshot(listener: (snapshot: CockpitSnapshot) => void): void;
  onNotice(listener: (notification: PlatformNotice) => void): void;
  onRelaunch(listener: () => void): void;
}

export function createCockpitRemote(): CockpitRemote {
  let send: ((message: ToServer) => void) | undefined;
  let ready = false;
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let snapshot: CockpitSnapshot | undefined;
  let address: string | undefined;
  const readyListeners = new Set<(ready: ServerReady) => void>();
  const snapshotListeners = new Set<(snapshot: CockpitSnapshot) => void>();
  const noticeListeners = new Set<(notification: PlatformNotice) => void>();
  const relaunchListeners = new Set<() => void>();

  function call<T = unknown>(request: LinkCall): Promise<T> {
    if (!send || !ready) return Promise.reject(new Error(NOT_RUNNING));
    const id = nextId++;
    const reply = new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    send({ kind: 'call', id, call: request });
    return reply;
  }

  function failPending(reason: string): void {
    for (const { reject } of pending.values()) reject(new Error(reason));
    pending.clear();
  }

  return {
    receive(message) {
      switch (message.kind) {
        case 'ready': {
          ready = true;
          const { kind: _kind, ...info } = message;
          return readyListeners.forEach((listener) => listener(info));
        }
        case 'snapshot':
          snapshot = message.snapshot;
          address = message.remoteAddress ?? undefined;
          return snapshotListeners.forEach((listener) => listener(message.snapshot));
        case 'notice':
          return noticeListeners.forEach((listener) => listener(message.notification));
        case 'relaunch':
          return relaunchListeners.forEach((listener) => listener());
        case 'standby':
          return;
        case 'reply': {
          const waiting = pending.get(message.id);
          pending.delete(message.id);
          if (!waiting) return;
          return message.ok ? waiting.resolve(message.value) : waiting.reject(new Error(message.error));
        }
      }
    },
    attach(sender) {
      failPending(NOT_RUNNING);
      send = sender;
      ready = false;
    },
    detach(reason) {
      send = undefined;
      ready = false;
      failPending(reason);
    },
    control: {
      wake: () => call({ method: 'wake' }),
      sleep: () => call({ method: 'sleep' }),
      stop: () => call<CallResults['stop']>({ method: 'stop' }),
      resume: () => call({ method: 'resume' }),
      demo: (on) => call({ method: 'demo', on }),
    },
    platform: {
      connect: () => void call({ method: 'platform-connect' }).catch(() => undefined),
      disconnect: () => call({ method: 'platform-disconnect' }).then(() => undefined),
    },
    recordings: { saveLast: (minutes) => call<CallResults['save-recording']>({ method: 'save-recording', minutes }) },
    createWindowSession: (ttlSeconds) => call<IssuedSession>({ method: 'create-window-session', ttlSeconds }),
    destroySession: (id) => call({ method: 'destroy-session', id }),
    lastSnapshot: () => snapshot,
    remoteAddress: () => address,
    onReady: (listener) => void readyListeners.add(listener),
    onSnapshot: (listener) => void snapshotListeners.add(listener),
    onNotice: (listener) => void noticeListeners.add(listener),
    onRelaunch: (listener) => void relaunchListeners.add(listener),
  };
}
