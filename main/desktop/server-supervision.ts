/**
 * The desktop app's restart loop: main/supervisor.ts around the server process of
 * server-entry.ts, with the desktop link (cockpit-remote.ts) moved to each new process. How a
 * process is made is injected: Electron's utilityProcess in main/electron/server.ts, a Node fork
 * in the tests. After the first start the port is pinned, so the window's origin (and the
 * cookie and policy bound to it) stays valid across restarts. A spare (`standby`) is linked to
 * the remote only when it takes over.
 */
import type { Log } from '../../server/index.ts';
import { createSupervisor, type Supervisor, type SupervisorTimers } from '../supervisor.ts';
import { isFromServer, type ServerReady, type ToServer } from './cockpit-link.ts';
import type { CockpitRemote } from './cockpit-remote.ts';

/** A started server process with its message channel. */
export interface LinkedProcess {
  readonly pid: number | undefined;
  send(message: ToServer): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** SIGTERM (on Windows an immediate end). */
  terminate(): void;
  /** SIGKILL, when a graceful stop takes too long. */
  kill(): void;
}

export interface ServerSupervisionOptions {
  /** Starts server-entry with these serve flags. */
  spawn(args: string[]): LinkedProcess;
  /** The serve flags of the first start. */
  args: readonly string[];
  remote: CockpitRemote;
  log: Log;
  /** Keep a loaded spare beside the server (config.spare, ROBOT_SPARE). */
  spare: boolean;
  timers?: SupervisorTimers;
}

export function superviseServer(options: ServerSupervisionOptions): Supervisor<ServerReady> {
  const { remote } = options;
  let pinnedPort: number | undefined;
  return createSupervisor<ServerReady>({
    log: options.log,
    ...(options.timers ? { timers: options.timers } : {}),
    spare: options.spare,
    start(events, mode) {
      const base = pinnedPort === undefined ? [...options.args] : [...options.args, '--port', String(pinnedPort)];
      const child = options.spawn(mode === 'spare' ? ['standby', ...base] : base);
      let gone = false;
      let linked = false;
      let listening = false;
      const link = () => {
        linked = true;
        remote.attach((message) => {
          if (!gone) child.send(message);
        });
      };
      if (mode === 'serve') link();
      child.onMessage((message) => {
        if (gone || !isFromServer(message)) return;
        if (message.kind === 'standby') return events.standingBy();
        if (!linked) return;
        remote.receive(message);
        if (message.kind === 'ready') {
          const { kind: _kind, ...ready } = message;
          pinnedPort ??= ready.port;
          listening = true;
          events.ready(ready);
        }
      });
      child.onExit((code, signal) => {
        if (gone) return;
        gone = true;
        // A spare's end is none of the remote's business: the running server still answers.
        if (linked) remote.detach('the cockpit server stopped; it is being restarted');
        events.exit(code, signal);
      });
      return {
        get pid() {
          return child.pid;
        },
        go() {
          link();
          child.send({ kind: 'go' });
        },
        // The server's own graceful stop (sockets closed with 1001, requests drained), asked by
        // message where it listens for one: a signal is no graceful stop on Windows.
        stop: () => (listening ? child.send({ kind: 'shutdown' }) : child.terminate()),
        kill: () => child.kill(),
      };
    },
  });
}
