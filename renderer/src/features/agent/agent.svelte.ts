/**
 * The agent card's state: the agent log (rows merged by id as they stream over /ws), the
 * dashboard's Ask and whether a turn runs, and the model settings. A turn's end is read from
 * GET /api/ask/last: checked when a final dashboard answer row arrives, and once a second
 * while the turn runs in case that row was missed.
 */
import type { ServerFrame } from '../../../../server/contract/index.ts';
import {
  readRow,
  type AgentApi,
  type AgentLogRow,
  type ConnectionTestResult,
  type ModelSettingsInput,
  type ModelSettingsView,
} from '../../lib/api/agent-api.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import { filterRows, mergeRows } from './agent-log.ts';

const POLL_MS = 1000;
const FIRST_ROWS = 100;

export class Agent {
  rows = $state.raw<AgentLogRow[]>([]);
  /** Show one persona's rows only; null shows all. */
  persona = $state<string | null>(null);
  readonly shown = $derived(filterRows(this.rows, this.persona));
  settings = $state.raw<ModelSettingsView | null>(null);
  settingsOpen = $state(false);
  running = $state(false);
  sending = $state(false);
  /** Why the last Ask failed or was refused; '' when it did not. */
  askProblem = $state('');
  /** The cockpit answered NOT_CONFIGURED to an Ask. */
  refusedUnconfigured = $state(false);
  readonly notConfigured = $derived(
    this.refusedUnconfigured ||
      (this.settings !== null && (this.settings.provider === 'none' || this.settings.problem !== undefined)),
  );
  readonly api: AgentApi;
  #poll: ReturnType<typeof setInterval> | null = null;

  constructor(api: AgentApi) {
    this.api = api;
  }

  hear(frame: ServerFrame): void {
    if (frame.type !== 'agent_log') return;
    const row = readRow(frame.row);
    if (!row) return;
    this.rows = mergeRows(this.rows, [row]);
    if (this.running && row.persona === 'dashboard' && row.role === 'assistant' && !row.pending) void this.checkTurn();
  }

  /** Fills the log (newest rows), the settings and the turn state; again after a reconnect. */
  async refresh(): Promise<void> {
    const [log, settings, last] = await Promise.all([this.api.log(FIRST_ROWS), this.api.settings(), this.api.last()]);
    if (log.ok) this.rows = mergeRows(this.rows, log.data);
    if (settings.ok) this.settings = settings.data;
    if (last.ok && last.data.running) this.#watch();
  }

  async ask(prompt: string): Promise<boolean> {
    this.sending = true;
    this.askProblem = '';
    const result = await this.api.ask(prompt);
    this.sending = false;
    if (result.ok) {
      this.refusedUnconfigured = false;
      this.#watch();
      return true;
    }
    if (result.code === 'NOT_CONFIGURED') this.refusedUnconfigured = true;
    else if (result.status === 409) {
      this.askProblem = 'An Ask is already running; wait for its answer.';
      this.#watch();
    } else this.askProblem = result.message;
    return false;
  }

  async checkTurn(): Promise<void> {
    const last = await this.api.last();
    if (!last.ok || last.data.running) return;
    this.#stopWatching();
    if (last.data.error) this.askProblem = last.data.error;
  }

  async saveSettings(input: ModelSettingsInput): Promise<ApiResult<ModelSettingsView>> {
    const result = await this.api.saveSettings(input);
    if (result.ok) {
      this.settings = result.data;
      this.refusedUnconfigured = false;
    }
    return result;
  }

  testSettings(input: ModelSettingsInput | Record<string, never>): Promise<ApiResult<ConnectionTestResult>> {
    return this.api.test(input);
  }

  dispose(): void {
    this.#stopWatching();
  }

  #watch(): void {
    this.running = true;
    this.#poll ??= setInterval(() => void this.checkTurn(), POLL_MS);
  }

  #stopWatching(): void {
    this.running = false;
    if (this.#poll !== null) clearInterval(this.#poll);
    this.#poll = null;
  }
}
