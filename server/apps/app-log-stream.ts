/**
 * The robot's app output, followed live while it matters: while an app runs (and for a linger
 * after it ends, so its crash lines arrive), and while a dashboard watches an app's log. It
 * follows the daemon's systemd journal when the daemon runs on this host under systemd, else the
 * daemon's own log stream where the version has one (log-followers.ts), filtered to the app's
 * output (journal-lines.ts). Every line goes into the cockpit's log as `robot app output` with
 * the app's name (so into the diagnostics log and bundle), to the dashboards watching that app,
 * and into a short backlog per app. When neither source can be read, it says so plainly.
 */
import { realSchedule, type Schedule } from '../clock.ts';
import type { AppLogLine, AppLogs, AppLogSource } from '../contract/apps.ts';
import type { Log } from '../log.ts';
import { DAEMON_UNIT, recentAppLogs, runJournalctl, type CommandResult, type RecentAppLogs } from './app-logs.ts';
import { createAppFilter, readRecord, type JournalRecord } from './journal-lines.ts';
import { followJournal, followLogStream, type Following, type Spawner, type StreamFollower } from './log-followers.ts';

export interface AppLogStreamDeps {
  daemonUrl: string;
  simulated: boolean;
  /** The daemon says it is a Wireless build (the only ones with a log stream). */
  wireless(): boolean;
  /** One-shot journalctl: whether the journal has the daemon's unit at all (replaced in tests). */
  journal?: (args: string[]) => Promise<CommandResult>;
  spawn?: Spawner;
  followStream?: StreamFollower;
  log: Log;
  schedule?: Schedule;
  /** How long the follow outlives the app's run or the last viewer (default 30 s). */
  lingerMs?: number;
  /** Wait before following again after the source ended by itself (default 5 s). */
  retryMs?: number;
}

export interface AppLogStream {
  /** The app the cockpit's apps poll sees starting, running or stopping, or null. */
  appRunning(name: string | null): void;
  /** A viewer of one app's log: gets each new line; returns the unwatch. */
  watch(app: string, listener: (line: AppLogLine, source: AppLogSource) => void): () => void;
  /** What has been followed of the app, or why nothing can be; keeps the follow on a while. */
  status(app: string): AppLogs | null;
  /** The backlog of the recent apps, for the diagnostics bundle. */
  recent(): AppLogs[];
  close(): void;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const PER_APP = 500;
const APPS_KEPT = 5;

export const SIMULATED_REASON =
  'The simulated robot keeps no journal and has no log stream, so app logs cannot be shown. The crash lines above come from the daemon itself.';

export function createAppLogStream(deps: AppLogStreamDeps): AppLogStream {
  const schedule = deps.schedule ?? realSchedule;
  const url = new URL(deps.daemonUrl);
  const lines = new Map<string, AppLogLine[]>();
  const watchers = new Map<string, Set<(line: AppLogLine, source: AppLogSource) => void>>();
  let running: string | null = null;
  let following: Following | null = null;
  let source: AppLogSource | null = null;
  /** Where the kept lines came from, for the bundle after the follow has stopped. */
  let lastSource: AppLogSource = 'journal';
  let reason: string | null = null;
  let starting = false;
  let closed = false;
  let cursor: string | null = null;
  let lastTime = '';
  let previous: JournalRecord | undefined;
  let cancelLinger: (() => void) | undefined;
  let cancelRetry: (() => void) | undefined;
  const filter = createAppFilter(() => running);

  const wanted = () => !closed && (running !== null || cancelLinger !== undefined || watchers.size > 0);

  /** Messages seen at `lastTime` (whole seconds on the log stream), to know a replayed line. */
  let atLastTime = new Set<string>();
  /** A reconnected log stream starts with its last 100 lines again: until a newer line, skip those seen. */
  let replaying = false;
  const take = (time: string | null, message: string) => {
    if (replaying && time !== null) {
      if (time < lastTime || (time === lastTime && atLastTime.has(message))) return;
      if (time > lastTime) replaying = false;
    }
    if (time !== null && time !== lastTime) {
      lastTime = time;
      atLastTime = new Set();
    }
    atLastTime.add(message);
    previous = readRecord(time, message, previous);
    const hit = filter.push(previous);
    if (!hit || !source) return;
    lastSource = source;
    const kept = lines.get(hit.app) ?? [];
    lines.delete(hit.app);
    lines.set(hit.app, [...kept.slice(-(PER_APP - 1)), hit.line]);
    for (const old of [...lines.keys()].slice(0, Math.max(0, lines.size - APPS_KEPT))) lines.delete(old);
    deps.log[hit.line.level === 'error' ? 'warn' : 'info']('robot app output', {
      app: hit.app,
      level: hit.line.level,
      text: hit.line.text,
    });
    for (const listener of watchers.get(hit.app) ?? []) listener(hit.line, source);
  };

  const ended = (why: string) => {
    following = null;
    source = null;
    reason = `App logs stopped: ${why}.`;
    deps.log.warn('app log follow ended', { reason: why });
    if (wanted()) cancelRetry = schedule(() => ((cancelRetry = undefined), sync()), deps.retryMs ?? 5000);
  };

  const begin = async (): Promise<void> => {
    // The built-in simulator keeps no journal; it has a log stream only when told to be Wireless.
    if (deps.simulated && !deps.wireless()) {
      reason = SIMULATED_REASON;
      return;
    }
    if (LOOPBACK.has(url.hostname) && !deps.simulated) {
      const probe = await (deps.journal ?? runJournalctl)([
        '-u',
        DAEMON_UNIT,
        '-b',
        '-n',
        '1',
        '-o',
        'json',
        '--no-pager',
      ]);
      if (probe.ok && probe.stdout.trim() !== '' && !/^-- No entries --/m.test(probe.stdout)) {
        if (!wanted()) return;
        source = 'journal';
        reason = null;
        following = followJournal({
          unit: DAEMON_UNIT,
          ...(deps.spawn ? { spawn: deps.spawn } : {}),
          afterCursor: cursor,
          onMessage: take,
          onCursor: (c) => (cursor = c),
          onEnd: ended,
        });
        return;
      }
      if (!deps.wireless()) {
        const why = probe.ok ? `the journal has no entries for ${DAEMON_UNIT}` : `journalctl failed: ${probe.error}`;
        reason = `App logs are not available: ${why}. The daemon does not run under systemd on this computer, and its version has no log stream.`;
        return;
      }
    } else if (!deps.wireless()) {
      reason = `App logs are not available: the daemon runs on ${url.host}, not on this computer, and only the Wireless daemon offers its log stream.`;
      return;
    }
    if (!wanted()) return;
    source = 'daemon-log-stream';
    reason = null;
    replaying = lastTime !== '';
    following = (deps.followStream ?? followLogStream)({
      url: `${deps.daemonUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/logs/ws/daemon`,
      onMessage: take,
      onEnd: ended,
    });
  };

  function sync(): void {
    if (wanted() && !following && !starting && !cancelRetry) {
      starting = true;
      void begin()
        .catch((error: unknown) => (reason = `App logs are not available: ${String(error)}`))
        .finally(() => {
          starting = false;
          if (!wanted()) sync();
        });
    } else if (!wanted() && following) {
      following.stop();
      following = null;
      source = null;
    }
  }

  const linger = () => {
    cancelLinger?.();
    cancelLinger = schedule(() => ((cancelLinger = undefined), sync()), deps.lingerMs ?? 30_000);
  };

  return {
    appRunning(name) {
      if (name === running) return;
      if (running !== null) linger();
      running = name;
      sync();
    },
    watch(app, listener) {
      const set = watchers.get(app) ?? new Set();
      set.add(listener);
      watchers.set(app, set);
      sync();
      return () => {
        set.delete(listener);
        if (set.size === 0) watchers.delete(app);
        if (watchers.size === 0) linger();
      };
    },
    status(app) {
      linger();
      sync();
      const kept = lines.get(app);
      if (source) return { available: true, app, source, lines: kept ?? [] };
      if (reason) return { available: false, app, reason };
      return null;
    },
    recent: () => [...lines].map(([app, kept]): AppLogs => ({ available: true, app, source: lastSource, lines: kept })),
    close() {
      closed = true;
      cancelLinger?.();
      cancelRetry?.();
      following?.stop();
      following = null;
    },
  };
}

/**
 * What the logs route and the bundle read: the live follow's lines when it has some for the app
 * (or its plain reason), else a one-shot read of the journal or log stream backlog (app-logs.ts).
 */
export function liveAppLogs(stream: AppLogStream, read: (app: string) => Promise<AppLogs>): RecentAppLogs {
  const remembered = recentAppLogs(async (app) => {
    const live = stream.status(app);
    return live && (!live.available || live.lines.length > 0) ? live : read(app);
  });
  return {
    read: (app) => remembered.read(app),
    recent() {
      const live = stream.recent();
      const names = new Set(live.map((l) => l.app));
      return [...live, ...remembered.recent().filter((l) => !names.has(l.app))];
    },
  };
}
