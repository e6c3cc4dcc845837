/**
 * The simulated daemon's log as journald would hold it, for the Wireless daemon's log stream
 * (`WS /logs/ws/daemon`, the daemon's routers/logs.py). The real daemon logs `<logger> - <LEVEL> - <message>`
 * to stderr under systemd; journald stores one entry per line, and the route runs
 * `journalctl -u reachy-mini-daemon -b -f -n 100 --output short-iso` and sends each line as a text
 * message, and an empty message after each second without one (its keep-alive). The route exists
 * only on Wireless builds (`wireless_version`); elsewhere the upgrade is refused like any unknown
 * path. The simulator is not Wireless unless a test says so (`/sim/wireless`).
 */
import type { WebSocket } from 'ws';

export const DAEMON_LOG_SOCKET = '/logs/ws/daemon';
const HOST = 'reachy-mini';
const KEEP = 2000;

export type DaemonLogLevel = 'INFO' | 'WARNING' | 'ERROR';

export interface DaemonLog {
  /** One record; a message with newlines becomes several journal lines, as journald splits it. */
  write(logger: string, level: DaemonLogLevel, message: string): void;
  /** The journal's last `n` lines, short-iso. */
  tail(n: number): string[];
  follow(listener: (line: string) => void): () => void;
}

/** journalctl's short-iso time: local offset written as +hhmm, seconds only. */
function shortIso(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}+0000`;
}

export function createDaemonLog(now: () => number = Date.now, pid = 812): DaemonLog {
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  return {
    write(logger, level, message) {
      const prefix = `${shortIso(now())} ${HOST} reachy-mini-daemon[${pid}]: `;
      const [first = '', ...rest] = `${logger} - ${level} - ${message}`.split('\n');
      for (const text of [first, ...rest]) {
        const line = `${prefix}${text}`;
        lines.push(line);
        for (const listener of listeners) listener(line);
      }
      if (lines.length > KEEP) lines.splice(0, lines.length - KEEP);
    },
    tail: (n) => lines.slice(-n),
    follow(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The route's behaviour: the last 100 lines, then each new one, "" after each quiet second. */
export function openDaemonLogSocket(log: DaemonLog, ws: WebSocket): void {
  let quiet: NodeJS.Timeout | undefined;
  const rearm = () => {
    clearTimeout(quiet);
    quiet = setTimeout(() => {
      if (ws.readyState === ws.OPEN) ws.send('');
      rearm();
    }, 1000);
    quiet.unref();
  };
  const send = (line: string) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(line);
    rearm();
  };
  for (const line of log.tail(100)) send(line);
  const unfollow = log.follow(send);
  rearm();
  ws.on('close', () => {
    unfollow();
    clearTimeout(quiet);
  });
  ws.on('error', () => ws.terminate());
}
