/**
 * The simulated daemon's app manager, after reachy_mini's AppManager: one app at a time, states
 * starting → running → done | error (on its own) or stopping → gone (stopped). An app in
 * `error` still counts as running for start (400 "An app is already running") until it is
 * stopped or restarted, as on the real daemon; the robot app lock is held from start until the
 * process exits. The crashing app dies `crashAfterMs` after it starts (default 4 s), or at once
 * on /sim/apps/crash; `crashAfterMs: null` holds it until then, so tests control the moment.
 */
import { catalogApp, installedInfo, SIM_APP_CATALOG, storeInfo, type AppInfo, type CatalogApp } from './app-catalog.ts';
import { createAppJobs, type AppJobs, type JobLog } from './app-jobs.ts';
import type { Timers } from './timers.ts';
import type { DaemonLog, DaemonLogLevel } from './daemon-log.ts';

/** The logger the daemon's app runner writes an app's output under (apps/manager.py). */
const RUNNER_LOGGER = 'reachy_mini.apps.manager.runner';

export type AppState = 'starting' | 'running' | 'done' | 'stopping' | 'error';

export interface AppStatus {
  info: AppInfo;
  state: AppState;
  error: string | null;
}

/** A handled daemon refusal: the route answers it as 400 `{"detail": message}` (RuntimeError). */
export class AppRefusal extends Error {}

/** How long the fake steps take: long enough for a socket to see progress, short for tests. */
const INSTALL_STEP_MS = 120;
const STOP_MS = 80;
const DEFAULT_CRASH_AFTER_MS = 4000;

export interface SimApps {
  readonly jobs: AppJobs;
  /** ms after start before the crashing app dies; null: only on crashNow(). */
  crashAfterMs: number | null;
  startupApp: string | null;
  store(): AppInfo[];
  installed(): AppInfo[];
  isInstalled(name: string): boolean;
  install(name: string): string;
  remove(name: string): string;
  update(name: string): string;
  /** Installed apps whose store revision moved on (the update check). */
  outdated(): { name: string; installed: string; latest: string }[];
  /** A new revision of an app appears in the store (sim control). */
  publish(name: string): void;
  start(name: string): AppStatus;
  stop(): Promise<void>;
  restart(): Promise<AppStatus>;
  status(): AppStatus | null;
  /** The running app dies now with its stderr (sim control); false when none runs. */
  crashNow(): boolean;
  /** Holder of the robot app lock, or null when free. */
  lockHolder(): string | null;
  /** stdout/stderr lines of the apps, as the daemon logs them under `reachy_mini.apps.manager.runner`. */
  readonly output: string[];
}

interface Current {
  app: CatalogApp;
  status: AppStatus;
}

export function createSimApps(timers: Timers, daemonLog?: DaemonLog): SimApps {
  const jobs = createAppJobs();
  const latest = new Map(SIM_APP_CATALOG.map((app) => [app.name, 'rev-1']));
  const installedSha = new Map<string, string>();
  const output: string[] = [];
  let current: Current | null = null;

  const say = (line: string, level: DaemonLogLevel = 'INFO'): void => {
    daemonLog?.write(RUNNER_LOGGER, level, line);
    output.push(line);
    if (output.length > 500) output.splice(0, output.length - 500);
  };
  const running = (): boolean =>
    current !== null && ['starting', 'running', 'error', 'stopping'].includes(current.status.state);
  const step = (log: JobLog, line: string): Promise<void> => {
    log(line);
    return timers.sleep(INSTALL_STEP_MS);
  };

  const crash = (run: Current): void => {
    if (current !== run || run.status.state !== 'running') return;
    const stderr = run.app.crash?.stderr ?? ['RuntimeError: the simulator killed this app'];
    const code = run.app.crash?.exitCode ?? 1;
    for (const line of stderr) say(line, 'WARNING');
    run.status.state = 'error';
    run.status.error = `Process exited with code ${code}\n${stderr.slice(-10).join('\n')}`;
    say(`App ${run.app.name} exited with code ${code}. Last stderr output:\n${stderr.slice(-10).join('\n')}`, 'ERROR');
  };

  const apps: SimApps = {
    jobs,
    crashAfterMs: DEFAULT_CRASH_AFTER_MS,
    startupApp: null,
    output,
    store: () => SIM_APP_CATALOG.map((app) => storeInfo(app, latest.get(app.name) ?? 'rev-1')),
    installed: () =>
      SIM_APP_CATALOG.filter((app) => installedSha.has(app.name)).map((app) =>
        installedInfo(app, installedSha.get(app.name) ?? ''),
      ),
    isInstalled: (name) => installedSha.has(name),
    install(name) {
      return jobs.run('install', async (log) => {
        const app = catalogApp(name);
        if (!app) {
          log(`Could not find the space for '${name}'`);
          throw new Error(`Failed to install app '${name}'`);
        }
        for (const line of app.installLog) await step(log, line);
        if (app.installError) {
          for (const line of app.installError) log(line);
          throw new Error(`Failed to install app '${name}'`);
        }
        installedSha.set(name, latest.get(name) ?? 'rev-1');
        log(`Successfully installed ${name}`);
      });
    },
    remove(name) {
      if (apps.startupApp === name) apps.startupApp = null;
      return jobs.run('remove', async (log) => {
        await step(log, `Removing ${name}`);
        if (!installedSha.delete(name)) throw new Error(`Failed to uninstall app '${name}'`);
        log(`Successfully uninstalled ${name}`);
      });
    },
    update(name) {
      return jobs.run('update', async (log) => {
        const app = catalogApp(name);
        if (!app || !installedSha.has(name)) throw new Error(`App '${name}' is not installed`);
        await step(log, `Updating app '${name}' from pollen-sim/${name}`);
        await step(log, `Uninstalling old version of '${name}'`);
        installedSha.set(name, latest.get(name) ?? 'rev-1');
        log(`Successfully updated '${name}'`);
      });
    },
    outdated: () =>
      [...installedSha].flatMap(([name, sha]) => {
        const newest = latest.get(name) ?? sha;
        return newest === sha ? [] : [{ name, installed: sha, latest: newest }];
      }),
    publish(name) {
      const rev = Number((latest.get(name) ?? 'rev-1').slice(4)) + 1;
      latest.set(name, `rev-${rev}`);
    },
    start(name) {
      if (running()) throw new AppRefusal('An app is already running');
      const app = catalogApp(name);
      if (!app || !installedSha.has(name)) throw new Error(`No entry point found for app '${name}'`);
      say(`Starting app ${name}`);
      const run: Current = {
        app,
        status: {
          info: { name, source_kind: 'installed', description: '', url: null, extra: {} },
          state: 'starting',
          error: null,
        },
      };
      current = run;
      // The monitor task marks it running as soon as the process has started.
      timers.after(20, () => {
        if (current !== run || run.status.state !== 'starting') return;
        run.status.state = 'running';
        say(`App ${name} is running`);
        for (const line of app.stdout) say(line);
        if (app.crash && apps.crashAfterMs !== null) timers.after(apps.crashAfterMs, () => crash(run));
      });
      return structuredClone(run.status);
    },
    async stop() {
      if (!current || current.status.state === 'done' || current.status.state === 'stopping')
        throw new AppRefusal('No app is currently running');
      const run = current;
      run.status.state = 'stopping';
      say(`Stopping app ${run.app.name}`);
      // SIGINT, the app's KeyboardInterrupt handler, then the process is gone.
      await timers.sleep(STOP_MS);
      say('App stopped successfully');
      if (current === run) current = null;
    },
    async restart() {
      if (!running() || !current) throw new AppRefusal('No app is currently running');
      const name = current.app.name;
      await apps.stop();
      return apps.start(name);
    },
    status: () => (current ? structuredClone(current.status) : null),
    crashNow() {
      if (!current || current.status.state !== 'running') return false;
      crash(current);
      return true;
    },
    lockHolder: () =>
      current && ['starting', 'running', 'stopping'].includes(current.status.state) ? current.app.name : null,
  };
  return apps;
}
