/**
 * The daemon's app store and app runner (/api/apps, docs/daemon.md, "Apps") over the daemon
 * client's one connection pool. Bodies are checked here: what leaves is typed, a malformed answer
 * is DAEMON_ERROR. Start, stop and restart wait for the daemon's answer, which on the robot
 * comes only once the app's process has started or ended (up to 20 s for a stop).
 */
import { AppError } from '../errors.ts';
import type { DaemonResponse, HttpTransport } from './http-transport.ts';
import { ok } from './daemon-reply.ts';

/**
 * The app manager's refusals (RuntimeError: "An app is already running", "No app is currently
 * running", "App 'x' is not installed") are 400s: a conflict with the robot's state, said as is.
 */
function okApps(res: DaemonResponse, what: string): unknown {
  if (res.status === 400) {
    const detail = (res.body as { detail?: unknown } | null)?.detail;
    throw new AppError('CONFLICT', typeof detail === 'string' ? detail : `the daemon refused ${what}`);
  }
  return ok(res, what);
}

export type WireSourceKind = 'hf_space' | 'dashboard_selection' | 'local' | 'installed';

/** The daemon's AppInfo dataclass. */
export interface WireAppInfo {
  name: string;
  source_kind: WireSourceKind;
  description: string;
  url: string | null;
  extra: Record<string, unknown>;
}

export interface WireAppStatus {
  info: WireAppInfo;
  state: 'starting' | 'running' | 'done' | 'stopping' | 'error';
  error: string | null;
}

export interface WireJobInfo {
  command: string;
  status: 'pending' | 'in_progress' | 'done' | 'failed';
  logs: string[];
}

export interface WireUpdateCheck {
  apps_with_updates: { app_name: string; installed_sha: string; latest_sha: string }[];
  apps_checked: number;
}

export interface DaemonApps {
  list(kind: WireSourceKind): Promise<WireAppInfo[]>;
  install(app: WireAppInfo): Promise<string>;
  remove(name: string): Promise<string>;
  update(name: string): Promise<string>;
  jobStatus(id: string): Promise<WireJobInfo>;
  /** `ws://…/api/apps/ws/apps-manager/{id}`: the job's live log. */
  jobSocketUrl(id: string): string;
  checkUpdates(force: boolean): Promise<WireUpdateCheck>;
  /** `noEvict`: the 1.10+ route that refuses instead of evicting a remote session. */
  start(name: string, noEvict: boolean): Promise<WireAppStatus>;
  stop(): Promise<void>;
  restart(): Promise<WireAppStatus>;
  current(): Promise<WireAppStatus | null>;
  startupApp(): Promise<string | null>;
  setStartupApp(name: string | null): Promise<string | null>;
}

/** Long enough for the daemon's graceful app stop (SIGINT, then 20 s before a kill). */
const APP_LIFECYCLE_MS = 25_000;
const JOB_START_MS = 10_000;

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

const JOB_STATUSES: ReadonlySet<unknown> = new Set(['pending', 'in_progress', 'done', 'failed']);

/** A job status the daemon documents, or undefined for anything else (read both from the REST route and the job socket). */
export function jobStatusOf(value: unknown): WireJobInfo['status'] | undefined {
  return JOB_STATUSES.has(value) ? (value as WireJobInfo['status']) : undefined;
}
const malformed = (what: string) => new AppError('DAEMON_ERROR', `daemon sent a malformed ${what}`);
const seg = (name: string) => encodeURIComponent(name);

export function readAppInfo(u: unknown): WireAppInfo | null {
  if (!isObject(u) || typeof u.name !== 'string' || typeof u.source_kind !== 'string') return null;
  return {
    name: u.name,
    source_kind: u.source_kind as WireSourceKind,
    description: typeof u.description === 'string' ? u.description : '',
    url: typeof u.url === 'string' ? u.url : null,
    extra: isObject(u.extra) ? u.extra : {},
  };
}

export function readAppStatus(u: unknown): WireAppStatus | null {
  if (u === null) return null;
  if (!isObject(u)) throw malformed('app status');
  const info = readAppInfo(u.info);
  const states = ['starting', 'running', 'done', 'stopping', 'error'];
  if (!info || typeof u.state !== 'string' || !states.includes(u.state)) throw malformed('app status');
  return { info, state: u.state as WireAppStatus['state'], error: typeof u.error === 'string' ? u.error : null };
}

function jobIdOf(body: unknown): string {
  if (!isObject(body) || typeof body.job_id !== 'string') throw malformed('job answer');
  return body.job_id;
}

export function createDaemonApps(http: HttpTransport): DaemonApps {
  const get = async (path: string, what: string, timeoutMs?: number) =>
    okApps(await http.request({ path, ...(timeoutMs ? { timeoutMs } : {}) }), what);
  const send = async (method: 'POST' | 'PUT', path: string, what: string, body?: unknown, timeoutMs?: number) =>
    okApps(await http.request({ method, path, body, ...(timeoutMs ? { timeoutMs } : {}) }), what);
  return {
    async list(kind) {
      const body = await get(`/api/apps/list-available/${kind}`, 'app list', JOB_START_MS);
      if (!Array.isArray(body)) throw malformed('app list');
      return body.map(readAppInfo).filter((a): a is WireAppInfo => a !== null);
    },
    install: async (app) => jobIdOf(await send('POST', '/api/apps/install', 'install', app, JOB_START_MS)),
    remove: async (name) =>
      jobIdOf(await send('POST', `/api/apps/remove/${seg(name)}`, 'remove', undefined, JOB_START_MS)),
    update: async (name) =>
      jobIdOf(await send('POST', `/api/apps/update/${seg(name)}`, 'update', undefined, JOB_START_MS)),
    async jobStatus(id) {
      const res = await http.request({ path: `/api/apps/job-status/${seg(id)}` });
      // The daemon keeps its jobs in memory only: once it has restarted it knows none of them.
      if (res.status === 404) throw new AppError('NOT_FOUND', 'the daemon does not know this job (it restarted?)');
      const body = okApps(res, 'job status');
      const status = isObject(body) ? jobStatusOf(body.status) : undefined;
      if (!isObject(body) || status === undefined || !Array.isArray(body.logs)) throw malformed('job status');
      return { command: String(body.command), status, logs: body.logs.map(String) };
    },
    jobSocketUrl: (id) => `${http.baseUrl.replace(/^http/, 'ws')}/api/apps/ws/apps-manager/${seg(id)}`,
    async checkUpdates(force) {
      const body = await get(`/api/apps/check-updates${force ? '?force=true' : ''}`, 'update check', APP_LIFECYCLE_MS);
      if (!isObject(body) || !Array.isArray(body.apps_with_updates)) throw malformed('update check');
      return {
        apps_checked: Number(body.apps_checked ?? 0),
        apps_with_updates: body.apps_with_updates.filter(isObject).map((u) => ({
          app_name: String(u.app_name),
          installed_sha: String(u.installed_sha ?? ''),
          latest_sha: String(u.latest_sha ?? ''),
        })),
      };
    },
    async start(name, noEvict) {
      const path = `/api/apps/start-app/${seg(name)}${noEvict ? '/no-evict' : ''}`;
      const status = readAppStatus(await send('POST', path, `start of ${name}`, undefined, APP_LIFECYCLE_MS));
      if (!status) throw malformed('app status');
      return status;
    },
    async stop() {
      await send('POST', '/api/apps/stop-current-app', 'app stop', undefined, APP_LIFECYCLE_MS);
    },
    async restart() {
      const status = readAppStatus(
        await send('POST', '/api/apps/restart-current-app', 'app restart', undefined, APP_LIFECYCLE_MS),
      );
      if (!status) throw malformed('app status');
      return status;
    },
    current: async () => readAppStatus(await get('/api/apps/current-app-status', 'app status')),
    async startupApp() {
      const body = await get('/api/apps/startup-app', 'startup app');
      if (!isObject(body)) throw malformed('startup app');
      return typeof body.startup_app === 'string' && body.startup_app !== '' ? body.startup_app : null;
    },
    async setStartupApp(name) {
      const body = await send('PUT', '/api/apps/startup-app', 'startup app', { startup_app: name });
      if (!isObject(body)) throw malformed('startup app');
      return typeof body.startup_app === 'string' && body.startup_app !== '' ? body.startup_app : null;
    },
  };
}
