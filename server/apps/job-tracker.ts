/**
 * Follows the daemon's app-store jobs (install, remove, update) for the dashboard. Live lines
 * come from the job's socket (WS /api/apps/ws/apps-manager/{id}: each log line as text, then a
 * JobInfo JSON); the socket sends nothing until the job's next record, so the job's status is
 * also read once when the socket opens and once when it closes, and polled if the socket cannot
 * be opened at all. Both sources are prefixes of one log: the longer one wins, no line twice.
 * Once the job has ended its socket is closed by the cockpit.
 */
import WebSocket from 'ws';
import { realSchedule, type Schedule } from '../clock.ts';
import type { AppJob, AppJobCommand, AppJobStatus } from '../contract/apps.ts';
import { jobStatusOf, type DaemonApps } from '../daemon/apps-client.ts';
import { isAppError } from '../errors.ts';
import type { Log } from '../log.ts';
import { daemonSocketOptions } from '../daemon/daemon-socket.ts';

export interface JobTrackerDeps {
  apps: Pick<DaemonApps, 'jobStatus' | 'jobSocketUrl'>;
  /** Every change of a job (a line, the status). */
  publish(job: AppJob): void;
  /** The job ended (done or failed). */
  settled?(job: AppJob): void;
  log: Log;
  now?: () => number;
  /** Runs the give-up (GIVE_UP_MS) of a job that never ends; real timers when omitted. */
  schedule?: Schedule;
  /** Poll period when the socket is unusable. */
  pollMs?: number;
}

export interface JobTracker {
  track(id: string, command: AppJobCommand, app: string): AppJob;
  get(id: string): AppJob | undefined;
  recent(): AppJob[];
  close(): void;
}

const KEEP = 20;
/**
 * The last lines of a job kept and sent with each change. The daemon's socket may send any
 * number (a job that never ends, a build that loops): all of them were kept and every new one
 * sent the whole log again to every dashboard. The end is where a failure's reason is.
 */
export const MAX_JOB_LINES = 500;
/**
 * The most of one line kept (pip's longest lines are a few hundred characters). A daemon frame
 * may be 1 MiB (daemon-socket.ts): 500 such lines were kept per job, and every new line sent
 * them all again to every dashboard.
 */
export const MAX_JOB_LINE_CHARS = 4000;

const capLine = (line: string): string =>
  line.length > MAX_JOB_LINE_CHARS ? `${line.slice(0, MAX_JOB_LINE_CHARS)}… [line cut]` : line;
/**
 * A job that has not ended after this long is left alone (its status stays what was last seen):
 * its socket is closed and its polling ends, where a daemon that kept the socket open and silent
 * held it for as long as the cockpit ran.
 */
export const GIVE_UP_MS = 15 * 60_000;

const ended = (s: AppJobStatus) => s === 'done' || s === 'failed';

/** The last line of a job the daemon no longer knows. */
export const LOST_LINE =
  'The daemon no longer knows this job (it restarted before the job ended): check the installed apps.';

export function createJobTracker(deps: JobTrackerDeps): JobTracker {
  const now = deps.now ?? Date.now;
  const pollMs = deps.pollMs ?? 1000;
  const schedule = deps.schedule ?? realSchedule;
  const jobs = new Map<string, AppJob>();
  /**
   * How to stop following each kept job (its socket, its poll): a job pushed out of the kept 20
   * is no longer shown, so its socket must not stay open (a run of installs held one each).
   */
  const followers = new Map<string, () => void>();
  let closed = false;

  const follow = (job: AppJob): (() => void) => {
    const started = now();
    // Each source's last lines, and how many it has sent in all (what "longer" compares).
    const socketLines: string[] = [];
    let socketTotal = 0;
    let polledLines: string[] = [];
    let polledTotal = 0;
    let shownTotal = 0;
    let done = false;
    let stopped = false;
    let pollTimer: NodeJS.Timeout | undefined;
    const update = (status: AppJobStatus | undefined): void => {
      if (done || stopped) return;
      const fromSocket = socketTotal >= polledTotal;
      const total = fromSocket ? socketTotal : polledTotal;
      const changed = total !== shownTotal || (status !== undefined && status !== job.status);
      shownTotal = total;
      job.lines = [...(fromSocket ? socketLines : polledLines)];
      if (status) job.status = status;
      if (changed) deps.publish({ ...job, lines: [...job.lines] });
      if (ended(job.status)) {
        done = true;
        cancelGiveUp();
        // The daemon never closes the socket of a job that ended before it was opened (its
        // bg_job_register `ws_poll_info` waits for a next line that never comes): it would stay
        // open, one per kept job, until pushed out of them.
        ws.terminate();
        deps.settled?.({ ...job, lines: [...job.lines] });
      }
    };
    const read = async (): Promise<void> => {
      try {
        const info = await deps.apps.jobStatus(job.id);
        polledLines = info.logs.slice(-MAX_JOB_LINES).map(capLine);
        polledTotal = info.logs.length;
        update(info.status);
      } catch (error) {
        if (isAppError(error) && error.code === 'NOT_FOUND') lost();
        else deps.log.debug('job status read failed', { job: job.id, error: String(error) });
      }
    };
    /**
     * The daemon no longer knows the job (it restarted: its jobs live in its memory). It will
     * never end there, so it ends here, failed, with the lines seen and a last one saying why,
     * where it stayed in progress on the dashboard for as long as it was kept.
     */
    const lost = (): void => {
      const seen = socketTotal >= polledTotal ? socketLines : polledLines;
      polledLines = [...seen, LOST_LINE].slice(-MAX_JOB_LINES);
      polledTotal = Math.max(socketTotal, polledTotal) + 1;
      update('failed');
    };
    const poll = (): void => {
      if (closed || stopped || done || now() - started > GIVE_UP_MS) return;
      pollTimer = setTimeout(() => {
        pollTimer = undefined;
        void read().then(poll);
      }, pollMs);
    };
    const ws = new WebSocket(deps.apps.jobSocketUrl(job.id), daemonSocketOptions());
    ws.on('open', () => void read());
    ws.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      if (text.startsWith('{')) {
        try {
          // The daemon's words: a status it does not document is no status change.
          const info = JSON.parse(text) as { status?: unknown };
          update(jobStatusOf(info.status));
          return;
        } catch {
          // Not JSON after all: a log line that starts with a brace.
        }
      }
      socketLines.push(capLine(text));
      if (socketLines.length > MAX_JOB_LINES) socketLines.shift();
      socketTotal += 1;
      update(undefined);
    });
    ws.on('error', (error) =>
      deps.log.debug('job socket failed; polling the job instead', { job: job.id, error: String(error) }),
    );
    ws.on('close', () => {
      // The final status, then polling in case the socket died before the job ended.
      if (!stopped && !done) void read().then(poll);
    });
    const stop = (): void => {
      stopped = true;
      cancelGiveUp();
      clearTimeout(pollTimer);
      ws.terminate();
    };
    const cancelGiveUp = schedule(() => {
      deps.log.warn('app job has not ended; no longer followed', { job: job.id, app: job.app });
      stop();
    }, GIVE_UP_MS);
    return stop;
  };

  return {
    track(id, command, app) {
      const job: AppJob = {
        id,
        command,
        app,
        status: 'in_progress',
        lines: [],
        startedAt: new Date(now()).toISOString(),
      };
      followers.get(id)?.();
      jobs.set(id, job);
      for (const old of [...jobs.keys()].slice(0, Math.max(0, jobs.size - KEEP))) {
        jobs.delete(old);
        followers.get(old)?.();
        followers.delete(old);
      }
      deps.publish({ ...job });
      followers.set(id, follow(job));
      return { ...job };
    },
    get: (id) => {
      const job = jobs.get(id);
      return job ? { ...job, lines: [...job.lines] } : undefined;
    },
    recent: () => [...jobs.values()].map((j) => ({ ...j, lines: [...j.lines] })).reverse(),
    close() {
      closed = true;
      for (const stop of followers.values()) stop();
    },
  };
}
