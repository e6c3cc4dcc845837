/**
 * An app's output, from where the daemon's log can be read (read-only, filtered to the app by
 * journal-lines.ts): the systemd journal when the daemon runs on this host under systemd
 * (unit `reachy-mini-daemon`, as the robot installs it), else the daemon's own log stream
 * (WS /logs/ws/daemon, Wireless builds only: docs/daemon.md, "The protocol as the cockpit uses it"). When neither is there the
 * answer says so plainly instead of an empty list.
 */
import { execFile } from 'node:child_process';
import WebSocket from 'ws';
import type { AppLogs } from '../contract/apps.ts';
import { appLines, parseJournal } from './journal-lines.ts';
import { daemonSocketOptions } from '../daemon/daemon-socket.ts';

export const DAEMON_UNIT = 'reachy-mini-daemon';

export type CommandResult = { ok: true; stdout: string } | { ok: false; error: string };

export interface AppLogDeps {
  daemonUrl: string;
  simulated: boolean;
  /** The daemon says it is a Wireless build (its status's `wireless_version`). */
  wireless(): boolean;
  /** Runs journalctl; replaced in tests. */
  journal?: (args: string[]) => Promise<CommandResult>;
  /** Reads the backlog of the daemon's log stream; replaced in tests. */
  logStream?: (url: string) => Promise<CommandResult>;
}

/** The most of the daemon's log one read takes, from journalctl or from the log stream. */
const LOG_READ_LIMIT = 8 * 1024 * 1024;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function runJournalctl(args: string[]): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile('journalctl', args, { timeout: 5000, maxBuffer: LOG_READ_LIMIT }, (error, stdout, stderr) => {
      if (error) resolve({ ok: false, error: (stderr || error.message).trim().split('\n')[0] ?? 'journalctl failed' });
      else resolve({ ok: true, stdout });
    });
  });
}

/** The stream sends the journal's last 100 lines at once, then follows: read until it goes quiet. */
export function readLogStream(url: string, quietMs = 700, maxMs = 3000): Promise<CommandResult> {
  return new Promise((resolve) => {
    const lines: string[] = [];
    let bytes = 0;
    const ws = new WebSocket(url, daemonSocketOptions());
    let quiet: NodeJS.Timeout | undefined;
    const finish = (result: CommandResult) => {
      clearTimeout(quiet);
      clearTimeout(cap);
      ws.terminate();
      resolve(result);
    };
    const cap = setTimeout(() => finish({ ok: true, stdout: lines.join('\n') }), maxMs);
    const rearm = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => finish({ ok: true, stdout: lines.join('\n') }), quietMs);
    };
    ws.on('open', rearm);
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text !== '') lines.push(text);
      bytes += data.length;
      // A stream that never goes quiet or floods: what came so far is the answer.
      if (bytes >= LOG_READ_LIMIT) return finish({ ok: true, stdout: lines.join('\n') });
      rearm();
    });
    ws.on('unexpected-response', (_req, res) =>
      finish({ ok: false, error: `the daemon answered ${res.statusCode ?? 0}` }),
    );
    ws.on('error', (error) => finish({ ok: false, error: error.message }));
  });
}

export async function readAppLogs(deps: AppLogDeps, app: string): Promise<AppLogs> {
  const url = new URL(deps.daemonUrl);
  if (deps.simulated && !deps.wireless())
    return {
      available: false,
      app,
      reason:
        'The simulated robot keeps no journal and has no log stream, so app logs cannot be shown. The crash lines above come from the daemon itself.',
    };
  if (LOOPBACK.has(url.hostname) && !deps.simulated) {
    const result = await (deps.journal ?? runJournalctl)([
      '-u',
      DAEMON_UNIT,
      '-b',
      '-n',
      '5000',
      '--no-pager',
      '-o',
      'short-iso',
    ]);
    if (result.ok && result.stdout.trim() !== '' && !/^-- No entries --/m.test(result.stdout))
      return { available: true, app, source: 'journal', lines: appLines(parseJournal(result.stdout), app) };
    if (!deps.wireless()) {
      const why = result.ok ? `the journal has no entries for ${DAEMON_UNIT}` : `journalctl failed: ${result.error}`;
      return {
        available: false,
        app,
        reason: `App logs are not available: ${why}. The daemon does not run under systemd on this computer, and its version has no log stream.`,
      };
    }
  }
  if (!deps.wireless())
    return {
      available: false,
      app,
      reason: `App logs are not available: the daemon runs on ${url.host}, not on this computer, and only the Wireless daemon offers its log stream.`,
    };
  const wsUrl = `${deps.daemonUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/logs/ws/daemon`;
  const stream = await (deps.logStream ?? readLogStream)(wsUrl);
  if (!stream.ok)
    return {
      available: false,
      app,
      reason: `App logs are not available: the daemon's log stream failed (${stream.error}).`,
    };
  return { available: true, app, source: 'daemon-log-stream', lines: appLines(parseJournal(stream.stdout), app) };
}

/**
 * readAppLogs for the logs route, whose overlapping reads share one read of the daemon's log (it
 * is the same log whatever the app; the filter is here). Each read runs journalctl, up to 8 MiB
 * of output, or holds the log stream open for up to 3 s, and the route is a plain GET: a page
 * or a script asking for many apps at once started one such read each, with no bound.
 */
export function sharedAppLogReads(deps: AppLogDeps): (app: string) => Promise<AppLogs> {
  const running = new Map<string, Promise<CommandResult>>();
  const once = (key: string, read: () => Promise<CommandResult>): Promise<CommandResult> => {
    let result = running.get(key);
    if (!result) {
      result = read().finally(() => running.delete(key));
      running.set(key, result);
    }
    return result;
  };
  const shared: AppLogDeps = {
    ...deps,
    journal: (args) => once(`journal ${args.join(' ')}`, () => (deps.journal ?? runJournalctl)(args)),
    logStream: (url) => once(`stream ${url}`, () => (deps.logStream ?? readLogStream)(url)),
  };
  return (app) => readAppLogs(shared, app);
}

/** App logs as last read, per app (the five most recent apps), so the diagnostics bundle carries them. */
export interface RecentAppLogs {
  read(app: string): Promise<AppLogs>;
  recent(): AppLogs[];
}

export function recentAppLogs(read: (app: string) => Promise<AppLogs>, keep = 5): RecentAppLogs {
  const last = new Map<string, AppLogs>();
  return {
    async read(app) {
      const logs = await read(app);
      last.delete(app);
      last.set(app, logs);
      for (const old of [...last.keys()].slice(0, Math.max(0, last.size - keep))) last.delete(old);
      return logs;
    },
    recent: () => [...last.values()],
  };
}
