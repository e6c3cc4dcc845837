/**
 * The apps page's state: the overview (GET, then `apps` frames from the cockpit's one shared
 * poll), the store, the jobs with their live lines (`app_job` frames), the log of one app (read,
 * then its new lines as `app_log` frames), and the actions with their pending and refused states.
 * Of two overviews the newer poll wins, whichever way it came (overview-order.ts).
 * Failures are shown, never thrown.
 */
import type {
  AppJob,
  AppLogLine,
  AppLogs,
  AppsOverview,
  ServerFrame,
  StoreApp,
} from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { AppsApi } from './apps-api.ts';
import { keepsNewer } from './overview-order.ts';

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null;

export class AppsState {
  overview = $state.raw<AppsOverview | null>(null);
  store = $state.raw<StoreApp[]>([]);
  /** Whether the store has been read once, and why the last read failed ('' when it did not). */
  storeRead = $state(false);
  storeProblem = $state('');
  /** Newest first. */
  jobs = $state.raw<AppJob[]>([]);
  logs = $state.raw<AppLogs | null>(null);
  pending = $state('');
  problem = $state('');
  note = $state('');
  readonly #api: AppsApi;

  constructor(api: AppsApi) {
    this.#api = api;
  }

  hear(frame: ServerFrame): void {
    if (frame.type === 'apps' && isRecord(frame) && Array.isArray(frame.installed)) {
      const { type: _type, ...overview } = frame;
      this.overview = keepsNewer(this.overview, overview as unknown as AppsOverview);
    } else if (frame.type === 'app_log' && typeof frame.app === 'string' && isRecord(frame.line)) {
      this.#hearLine(frame.app, frame.source, frame.line);
    } else if (frame.type === 'app_job' && typeof frame.id === 'string') {
      const { type: _type, ...job } = frame;
      this.#adopt(job as unknown as AppJob);
      if (job.status === 'done' || job.status === 'failed') void this.loadStore();
    }
  }

  async load(): Promise<void> {
    const [overview, jobs] = await Promise.all([this.#api.overview(), this.#api.jobs()]);
    // Answers are checked at the edge: a shape this page does not know is never drawn.
    if (overview.ok && isRecord(overview.data) && Array.isArray(overview.data.installed))
      this.overview = keepsNewer(this.overview, overview.data);
    else this.problem = `The apps could not be read: ${overview.ok ? 'unexpected answer' : overview.message}`;
    if (jobs.ok && Array.isArray(jobs.data)) this.jobs = jobs.data;
    await this.loadStore();
  }

  async loadStore(): Promise<void> {
    const store = await this.#api.store();
    if (store.ok && Array.isArray(store.data)) {
      this.store = store.data;
      this.storeRead = true;
      this.storeProblem = '';
    } else this.storeProblem = store.ok ? 'unexpected answer' : store.message;
  }

  install = (name: string) => this.#job(`Installing ${name}`, () => this.#api.install(name));
  remove = (name: string) => this.#job(`Removing ${name}`, () => this.#api.remove(name));
  update = (name: string) => this.#job(`Updating ${name}`, () => this.#api.update(name));
  start = (name: string) => this.#run(`Starting ${name}`, () => this.#api.start(name));
  stop = () => this.#run('Stopping the app', () => this.#api.stop());
  restart = () => this.#run('Restarting the app', () => this.#api.restart());
  setStartup = (name: string | null) => this.#run('Saving the startup app', () => this.#api.setStartup(name));

  async checkUpdates(): Promise<void> {
    this.pending = 'Checking for updates';
    this.problem = '';
    const result = await this.#api.checkUpdates();
    this.pending = '';
    if (!result.ok) this.problem = result.message;
    else
      this.note =
        result.data.updates.length === 0
          ? `All ${result.data.checked} apps are up to date.`
          : `${result.data.updates.length} update(s) available.`;
  }

  async openLog(app: string): Promise<void> {
    this.logs = null;
    this.pending = `Reading the log of ${app}`;
    const result = await this.#api.logs(app);
    this.pending = '';
    this.logs = result.ok
      ? result.data
      : { available: false, app, reason: `The log could not be read: ${result.message}` };
  }

  closeLog(): void {
    this.logs = null;
  }

  /** A new line of the open log, from the socket (the page asks for them while the log is open). */
  #hearLine(app: string, source: unknown, line: Record<string, unknown>): void {
    const logs = this.logs;
    if (!logs || logs.app !== app || typeof line.text !== 'string') return;
    const next: AppLogLine = {
      time: typeof line.time === 'string' ? line.time : null,
      level: line.level === 'warn' || line.level === 'error' || line.level === 'debug' ? line.level : 'info',
      text: line.text,
    };
    this.logs = logs.available
      ? { ...logs, lines: [...logs.lines, next].slice(-500) }
      : { available: true, app, source: source === 'journal' ? 'journal' : 'daemon-log-stream', lines: [next] };
  }

  #adopt(job: AppJob): void {
    this.jobs = [job, ...this.jobs.filter((j) => j.id !== job.id)].slice(0, 10);
  }

  async #job(doing: string, call: () => Promise<ApiResult<AppJob>>): Promise<void> {
    this.pending = doing;
    this.problem = '';
    const result = await call();
    this.pending = '';
    if (!result.ok) this.problem = result.message;
    else if (!isRecord(result.data) || !Array.isArray(result.data.lines)) return;
    // The frames may have told more already: keep whichever has more lines.
    else if (!this.jobs.some((j) => j.id === result.data.id && j.lines.length >= result.data.lines.length))
      this.#adopt(result.data);
  }

  async #run(doing: string, call: () => Promise<ApiResult<AppsOverview>>): Promise<void> {
    this.pending = doing;
    this.problem = '';
    const result = await call();
    this.pending = '';
    if (!result.ok) this.problem = result.message;
    else if (isRecord(result.data) && Array.isArray(result.data.installed))
      this.overview = keepsNewer(this.overview, result.data);
  }
}
