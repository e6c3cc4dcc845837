/**
 * The robot's apps for the cockpit: what is installed, the startup app, the app running now (one
 * shared poll, app-status-poll.ts), the store, install / remove / update jobs followed live
 * (job-tracker.ts), start / stop / restart, and the STOP's app part. Everything goes through the
 * robot core's one daemon client. Changes reach every dashboard as `apps` and `app_job` frames.
 */
import type {
  AppJob,
  AppJobCommand,
  AppStopReport,
  AppsOverview,
  AppUpdateCheck,
  CurrentApp,
  InstalledApp,
  StoreApp,
} from '../contract/apps.ts';
import type { AppJobFrame, AppsFrame } from '../contract/ws.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import { AppError, badRequest, isAppError, messageOf } from '../errors.ts';
import type { Log } from '../log.ts';
import type { StopLatch } from '../motion/stop-latch.ts';
import { createStatusPoll, type StatusPoll } from './app-status-poll.ts';
import { createEmergencyAppStop } from './emergency-app-stop.ts';
import { createJobTracker, type JobTracker } from './job-tracker.ts';

export interface AppsDeps {
  daemon: Pick<DaemonClient, 'apps'>;
  /** Frames for every dashboard (`apps`, `app_job`). */
  broadcast(frame: object): void;
  /** The current app as each announcement tells it (the app log follow listens). */
  currentChanged?(current: CurrentApp | null): void;
  /**
   * Starting an app moves the robot: refused while the latched stop holds (STOP_LATCHED), and
   * undone when a stop came while the daemon was starting it (`engagements` counts the stops).
   */
  latch: Pick<StopLatch, 'assertFree' | 'engagements'>;
  /**
   * Whether to start through `start-app/{name}/no-evict` (daemon 1.10+, refuses instead of
   * evicting a remote session). The default is the plain route every version has.
   */
  useNoEvict?: () => boolean;
  log: Log;
  now?: () => number;
  pollMs?: number;
  /** How long the STOP waits for the daemon to confirm the app is gone. */
  stopWaitMs?: number;
}

export interface AppsService {
  overview(): AppsOverview;
  /** Re-reads the installed list, the startup app and the current app. */
  refresh(): Promise<AppsOverview>;
  store(): Promise<StoreApp[]>;
  install(name: string): Promise<AppJob>;
  remove(name: string): Promise<AppJob>;
  update(name: string): Promise<AppJob>;
  jobs(): AppJob[];
  job(id: string): AppJob | undefined;
  checkUpdates(): Promise<AppUpdateCheck>;
  start(name: string): Promise<AppsOverview>;
  stop(): Promise<AppsOverview>;
  restart(): Promise<AppsOverview>;
  setStartup(name: string | null): Promise<AppsOverview>;
  /** The STOP's part: stop whatever app runs, then check it is gone. Never throws. */
  stopForEmergency(): Promise<AppStopReport>;
  startPolling(): void;
  close(): void;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function appName(value: unknown): string {
  if (typeof value !== 'string' || !NAME.test(value))
    throw badRequest('name must be an app name: letters, digits, dot, dash or underscore (1-100)');
  return value;
}

/** How old the installed list and the startup app may get while the daemon answers. */
export const LISTS_EVERY_MS = 30_000;

export function createAppsService(deps: AppsDeps): AppsService {
  const apps = deps.daemon.apps;
  const now = deps.now ?? Date.now;
  let installed: InstalledApp[] = [];
  let startupApp: string | null = null;
  const updates = new Set<string>();
  const overview = (): AppsOverview => ({
    installed: installed.map((a) => ({ ...a, updateAvailable: updates.has(a.name) })),
    startupApp,
    current: poll.current(),
    polledAt: poll.polledAt(),
    problem: poll.problem(),
  });
  const announce = () => {
    deps.currentChanged?.(poll.current());
    deps.broadcast({ type: 'apps', ...overview() } satisfies AppsFrame);
  };
  const poll: StatusPoll = createStatusPoll({
    read: async () => {
      const wire = await apps.current();
      emergency.settleOwed(wire);
      listsDue();
      return wire;
    },
    changed: announce,
    crashed: (name, error) => deps.log.warn('robot app crashed', { app: name, error }),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.pollMs ? { everyMs: deps.pollMs } : {}),
  });
  const emergency = createEmergencyAppStop({
    apps,
    poll,
    log: deps.log,
    waitMs: deps.stopWaitMs ?? 5000,
    ...(deps.now ? { now: deps.now } : {}),
  });
  let listsReadAt: number | null = null;
  let listsInFlight: Promise<void> | undefined;
  const readLists = async (): Promise<void> => {
    const [list, startup] = await Promise.all([apps.list('installed'), apps.startupApp()]);
    installed = list.map((a) => ({ name: a.name, description: a.description, updateAvailable: false }));
    startupApp = startup;
    listsReadAt = now();
  };
  /**
   * The daemon answered the poll: the lists are read again if they never were (the daemon was
   * down when the cockpit started) or are LISTS_EVERY_MS old (another client, such as Pollen's
   * own dashboard, installed an app or set the startup app). A change goes out as an `apps` frame.
   */
  const listsDue = (): void => {
    if (listsInFlight || (listsReadAt !== null && now() - listsReadAt < LISTS_EVERY_MS)) return;
    const before = JSON.stringify([installed, startupApp]);
    listsInFlight = readLists()
      .then(
        () => {
          if (JSON.stringify([installed, startupApp]) !== before) announce();
        },
        (error: unknown) => deps.log.debug('installed apps not read', { error: messageOf(error) }),
      )
      .finally(() => (listsInFlight = undefined));
  };
  const tracker: JobTracker = createJobTracker({
    apps,
    publish: (job) => deps.broadcast({ type: 'app_job', ...job } satisfies AppJobFrame),
    settled: (job) => {
      deps.log[job.status === 'done' ? 'info' : 'warn'](`app ${job.command} ${job.status}`, {
        app: job.app,
        lines: job.lines.slice(-5),
      });
      void readLists().then(announce, () => undefined);
    },
    log: deps.log,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const requireInstalled = async (name: string): Promise<void> => {
    await readLists();
    if (!installed.some((a) => a.name === name))
      throw new AppError('NOT_FOUND', `the app ${name} is not installed on the robot`);
  };
  const runJob = async (command: AppJobCommand, name: string, begin: () => Promise<string>): Promise<AppJob> => {
    const id = await begin();
    deps.log.info(`app ${command} started`, { app: name, job: id });
    return tracker.track(id, command, name);
  };
  /**
   * A start or restart the STOP overtook. The daemon names the new app only once its process
   * exists (docs/daemon.md, "What daemon 1.13.0 does"; a restart stops the old one first), so a STOP
   * that came while the daemon was at it could find no app to stop, and the app then ran after
   * the STOP. Asked before the daemon is (a STOP during the list read) and again once it answered:
   * then the app it brought up is stopped, and the start answers STOP_LATCHED. A start the daemon
   * did not answer in time may still bring the app up later, after that stop found none: a STOP
   * within a bound of it owes the app a stop (emergency-app-stop.ts, unansweredStart).
   */
  const stoppedSince = (stops: number): boolean => deps.latch.engagements() !== stops;
  const launch = async (stops: number, name: string | null, begin: () => Promise<unknown>): Promise<void> => {
    if (stoppedSince(stops))
      throw new AppError('STOP_LATCHED', 'a stop came while the app was being started: it was not started');
    emergency.forgive();
    poll.markStart();
    let report: AppStopReport | undefined;
    try {
      await begin();
    } catch (error) {
      if (isAppError(error) && error.code === 'DAEMON_TIMEOUT') emergency.unansweredStart(name);
      throw error;
    } finally {
      if (stoppedSince(stops)) {
        report = await emergency.stop().finally(announce);
        deps.log.warn('robot app start overtaken by a stop', {
          app: report.name,
          stopped: report.stopped,
          error: report.error ?? null,
        });
      }
    }
    if (report) {
      const outcome = report.stopped
        ? 'so it was stopped'
        : report.error
          ? `and its stop is not confirmed: ${report.error}`
          : 'and it was not running afterwards';
      throw new AppError('STOP_LATCHED', `a stop came while the app was being started, ${outcome}`);
    }
  };
  const after = async (): Promise<AppsOverview> => {
    await poll.refresh(true);
    announce();
    return overview();
  };

  return {
    overview,
    async refresh() {
      await Promise.all([readLists(), poll.refresh()]);
      announce();
      return overview();
    },
    async store() {
      const [store, mine] = await Promise.all([apps.list('hf_space'), apps.list('installed')]);
      const names = new Set(mine.map((a) => a.name));
      return store.map((a) => ({ name: a.name, description: a.description, url: a.url, installed: names.has(a.name) }));
    },
    async install(name) {
      const entry = (await apps.list('hf_space')).find((a) => a.name === name);
      if (!entry) throw new AppError('NOT_FOUND', `the app ${name} is not in the store`);
      return runJob('install', name, () => apps.install(entry));
    },
    async remove(name) {
      await requireInstalled(name);
      return runJob('remove', name, () => apps.remove(name));
    },
    async update(name) {
      await requireInstalled(name);
      updates.delete(name);
      return runJob('update', name, () => apps.update(name));
    },
    jobs: () => tracker.recent(),
    job: (id) => tracker.get(id),
    async checkUpdates() {
      const result = await apps.checkUpdates(true);
      updates.clear();
      for (const u of result.apps_with_updates) updates.add(u.app_name);
      announce();
      return {
        checked: result.apps_checked,
        updates: result.apps_with_updates.map((u) => ({
          name: u.app_name,
          installed: u.installed_sha,
          latest: u.latest_sha,
        })),
      };
    },
    async start(name) {
      const stops = deps.latch.engagements();
      deps.latch.assertFree();
      await requireInstalled(name);
      await launch(stops, name, () => apps.start(name, deps.useNoEvict?.() ?? false));
      deps.log.info('robot app started', { app: name });
      return after();
    },
    async stop() {
      // A crashed app has no process left: the daemon's stop then only drives the head to rest
      // (docs/daemon.md, "Apps"), a move the latched stop refuses, as the STOP itself leaves a
      // crashed app alone (emergency-app-stop.ts). A running app is stopped, latched or not.
      if ((await apps.current())?.state === 'error') deps.latch.assertFree();
      await apps.stop();
      deps.log.info('robot app stopped', { app: poll.current()?.name ?? null });
      return after();
    },
    async restart() {
      const stops = deps.latch.engagements();
      deps.latch.assertFree();
      await launch(stops, poll.current()?.name ?? null, () => apps.restart());
      deps.log.info('robot app restarted', { app: poll.current()?.name ?? null });
      return after();
    },
    async setStartup(name) {
      if (name !== null) await requireInstalled(name);
      startupApp = await apps.setStartupApp(name);
      announce();
      return overview();
    },
    stopForEmergency: () => emergency.stop().finally(announce),
    // The first answer of the poll reads the lists too (listsDue).
    startPolling: () => poll.start(),
    close() {
      poll.stop();
      tracker.close();
    },
  };
}
