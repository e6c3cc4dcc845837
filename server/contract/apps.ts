/**
 * The robot's apps as the cockpit shows them (/api/console/apps*, the `apps` and `app_job` frames
 * on /ws, the STOP's app part). The daemon manages the apps (docs/daemon.md, "Apps"); these are the
 * cockpit's shapes, not the daemon's wire.
 */

/** The daemon's AppState: `error` is a crash (non-zero exit), `done` a clean exit. */
export type AppRunState = 'starting' | 'running' | 'done' | 'stopping' | 'error';

export interface InstalledApp {
  name: string;
  description: string;
  /** From the last update check; false until one ran. */
  updateAvailable: boolean;
}

export interface StoreApp {
  name: string;
  description: string;
  /** The app's page in the store (a Hugging Face Space), when it has one. */
  url: string | null;
  installed: boolean;
}

export interface CurrentApp {
  name: string;
  state: AppRunState;
  /** The daemon's error text on a crash: `Process exited with code N` and the last stderr lines. */
  error: string | null;
  /** `error` split into lines, empty ones dropped. */
  errorLines: string[];
  /** When the cockpit first saw this run (ISO); the daemon does not say when it started. */
  since: string;
}

/** What every viewer of the apps page sees: one poll of the daemon, shared. */
export interface AppsOverview {
  installed: InstalledApp[];
  startupApp: string | null;
  current: CurrentApp | null;
  /** When the current app's status was last read (ISO); null before the first read. */
  polledAt: string | null;
  /** Why the last read failed (the daemon down...), or null. */
  problem: string | null;
}

export type AppJobCommand = 'install' | 'remove' | 'update';
export type AppJobStatus = 'pending' | 'in_progress' | 'done' | 'failed';

/** A background job of the daemon's app store, with its log lines as they arrived. */
export interface AppJob {
  id: string;
  command: AppJobCommand;
  app: string;
  status: AppJobStatus;
  lines: string[];
  startedAt: string;
}

export interface AppUpdateCheck {
  checked: number;
  updates: { name: string; installed: string; latest: string }[];
}

/** The STOP's part for the robot's app (server/motion/emergency-stop.ts). */
export interface AppStopReport {
  /** The app that was running, or null when none was. */
  name: string | null;
  /** The app was asked to stop and is gone (status null or done) afterwards. */
  stopped: boolean;
  error?: string;
}

export type AppLogSource = 'journal' | 'daemon-log-stream';

export interface AppLogLine {
  /** ISO time from the journal, or null when the line carried none. */
  time: string | null;
  level: 'debug' | 'info' | 'warn' | 'error';
  text: string;
}

/** An app's output from the daemon's logs, or why it cannot be read. */
export type AppLogs =
  | { available: true; app: string; source: AppLogSource; lines: AppLogLine[] }
  | { available: false; app: string; reason: string };

/** One new line of an app's output, sent to the dashboards watching that app's log (`app_logs` on /ws). */
export interface AppLogFrame {
  type: 'app_log';
  app: string;
  source: AppLogSource;
  line: AppLogLine;
}
