/**
 * The STOP's app part: stop whatever app runs on the robot, then check it is gone. Never throws;
 * the report says what happened.
 *
 * - An app that crashed (`error`) or ended (`done`) has no process left, so it is not stopped:
 *   the daemon's stop would only run its after-stop routine, which drives the head back to rest
 *   (reachy_mini apps/manager.py `stop_current_app`, docs/daemon.md, "Apps"), a motion the STOP
 *   itself would then have caused.
 * - A daemon that does not answer the status read still gets the stop, for the app the shared
 *   poll last saw running. When the stop cannot be confirmed, that app is owed a stop: the next
 *   poll that sees it running again stops it (`settleOwed`), so a daemon that was hung or down
 *   during the STOP does not leave the app running once it answers.
 * - A start the daemon did not answer in time (`unansweredStart`) may still bring its app up
 *   later: the daemon names the app only once its process exists (docs/daemon.md, "What daemon
 *   1.13.0 does"), so a STOP meanwhile finds no app. A STOP within LATE_START_MS of that start
 *   owes its app a stop, kept while the app is not yet seen, until that bound: the poll that
 *   first sees it running stops it. As the arbiter does for an unanswered move (server/motion/arbiter.ts),
 *   an app started by someone else in that time under the same name may be stopped in its place,
 *   the safe side to err on.
 */
import type { AppRunState, AppStopReport } from '../contract/apps.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { WireAppStatus } from '../daemon/apps-client.ts';
import { AppError, messageOf } from '../errors.ts';
import type { Log } from '../log.ts';
import type { StatusPoll } from './app-status-poll.ts';

/** How long an unanswered start may still bring its app up, for a STOP to owe it a stop. */
export const LATE_START_MS = 5 * 60_000;

/** States with an app process the daemon can stop. */
const HAS_PROCESS: ReadonlySet<AppRunState> = new Set(['starting', 'running', 'stopping']);

export interface EmergencyAppStop {
  stop(): Promise<AppStopReport>;
  /** Each status the poll reads: stops an owed app seen running, forgets it once it is gone. */
  settleOwed(wire: WireAppStatus | null): void;
  /** The cockpit (re)started an app on purpose: nothing is owed any more. */
  forgive(): void;
  /** The daemon did not answer a start of `name` (null: the app a restart brings back, any name) in time. */
  unansweredStart(name: string | null): void;
  owed(): string | null;
}

export function createEmergencyAppStop(deps: {
  apps: Pick<DaemonClient['apps'], 'current' | 'stop'>;
  poll: Pick<StatusPoll, 'current' | 'refresh' | 'problem'>;
  log: Log;
  /** How long the STOP waits for the daemon to confirm the app is gone. */
  waitMs: number;
  /** Epoch ms, for LATE_START_MS; Date.now by default. */
  now?: () => number;
}): EmergencyAppStop {
  const { apps, poll, log } = deps;
  const now = deps.now ?? Date.now;
  /**
   * The app owed a stop (null name: any app). `until` null: forgotten as soon as a poll does not
   * see it running; else kept until then while it has not come up (a late start).
   */
  let owed: { name: string | null; until: number | null } | null = null;
  let lateStart: { name: string | null; until: number } | null = null;
  let retrying = false;

  /** The app to stop: the daemon's answer, or the poll's last sighting when it gives none. */
  const target = async (): Promise<{ name: string | null; unread?: string }> => {
    try {
      const now = await apps.current();
      return { name: now && HAS_PROCESS.has(now.state) ? now.info.name : null };
    } catch (error) {
      const seen = poll.current();
      return { name: seen && HAS_PROCESS.has(seen.state) ? seen.name : null, unread: messageOf(error) };
    }
  };

  const stopAndCheck = async (name: string): Promise<AppStopReport> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deps.waitMs)));
    // "No app is currently running" means it ended meanwhile: the check below says so.
    const stopped = apps.stop().then(
      () => 'ok' as const,
      (error: unknown) =>
        error instanceof AppError && error.code === 'CONFLICT' ? ('ok' as const) : Promise.reject(error),
    );
    const outcome = await Promise.race([stopped, late]).finally(() => clearTimeout(timer));
    if (outcome === 'late') {
      return {
        name,
        stopped: false,
        error: `the daemon has not confirmed the app stop within ${deps.waitMs / 1000} s`,
      };
    }
    const after = await poll.refresh();
    const problem = poll.problem();
    if (problem) return { name, stopped: false, error: `the app stop could not be checked: ${problem}` };
    const gone = after === null || !HAS_PROCESS.has(after.state);
    return gone
      ? { name, stopped: true }
      : { name, stopped: false, error: `the app is still ${after.state} after the stop` };
  };

  /** A late start still possible: its app is owed a stop too (any app's, when another one is owed already). */
  const oweLateStart = (): void => {
    if (lateStart === null || now() >= lateStart.until) return;
    const name = owed === null || owed.name === lateStart.name ? lateStart.name : null;
    owed = { name, until: lateStart.until };
    log.warn('a robot app start the daemon did not answer may still bring the app up; it is stopped when it does', {
      app: name,
    });
  };

  const stopNow = async (): Promise<AppStopReport> => {
    const { name, unread } = await target();
    if (name === null) {
      if (unread) return { name: null, stopped: false, error: `the running app could not be read: ${unread}` };
      await poll.refresh();
      return { name: null, stopped: false };
    }
    const report = await stopAndCheck(name).catch((error: unknown) => ({
      name,
      stopped: false,
      error: messageOf(error),
    }));
    owed = report.stopped ? null : { name, until: null };
    if (owed)
      log.warn('robot app not confirmed stopped; it is stopped when the daemon next shows it running', { app: name });
    return report;
  };

  return {
    async stop() {
      const report = await stopNow();
      oweLateStart();
      return report;
    },
    settleOwed(wire) {
      if (owed === null || retrying) return;
      if (!wire || (owed.name !== null && wire.info.name !== owed.name) || !HAS_PROCESS.has(wire.state)) {
        // A late start's app that has not come up yet stays owed, until its bound.
        if (owed.until === null || now() >= owed.until) owed = null;
        return;
      }
      // Already on its way out: the daemon refuses a second stop, and the next read sees it gone.
      if (wire.state === 'stopping') return;
      const debt = owed;
      const name = wire.info.name;
      retrying = true;
      apps
        .stop()
        .then(
          () => {
            if (owed === debt) owed = null;
            log.info('robot app stopped: the STOP asked for it while the daemon did not answer', { app: name });
            void poll.refresh();
          },
          (error: unknown) =>
            log.warn('robot app owed a stop could not be stopped yet', { app: name, error: messageOf(error) }),
        )
        .finally(() => (retrying = false));
    },
    forgive() {
      owed = null;
      lateStart = null;
    },
    unansweredStart(name) {
      lateStart = { name, until: now() + LATE_START_MS };
    },
    owed: () => (owed ? (owed.name ?? '(any app)') : null),
  };
}
