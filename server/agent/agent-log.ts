/**
 * The agent log: one store for every persona (dashboard Ask, fleet turns, the thinker). Rows get
 * increasing integer ids that keep increasing across restarts; a row is created at once and then
 * updated while the model streams (same id), each update sent as `{type: "agent_log", row}` on
 * /ws at most ~20 times a second per row (the last state always goes out). A row is persisted
 * when it is finished, through the bounded, torn-line tolerant JSON-lines store
 * (docs/architecture.md, "Configuration and persistence"), so a restart reloads every finished row.
 */
import { systemClock, type TimerClock } from '../clock.ts';
import type { AgentLogFrame } from '../contract/ws.ts';
import type { Log } from '../log.ts';
import { createJsonLines, type JsonLines } from '../store/json-lines.ts';
import { capJson, capText, validateRow, type AgentLogRow, type NewRow, type RowPatch } from './log-row.ts';

export type { AgentLogRow, AgentRole, ToolRecord } from './log-row.ts';

export type { AgentLogFrame } from '../contract/ws.ts';

export interface RowHandle {
  readonly id: number;
  /** Appends streamed text. */
  append(text: string): void;
  update(patch: RowPatch): void;
  /** Final state: sent at once, persisted, no more updates. */
  finish(patch?: RowPatch): void;
}

export interface AgentLogDeps {
  /** `<data dir>/agent-log.jsonl` */
  file: string;
  broadcast: (frame: AgentLogFrame) => void;
  log: Log;
  maxRows?: number;
  /** Minimum spacing of frames for one streaming row (50 ms = 20 Hz). */
  throttleMs?: number;
  /** Row times and the update throttle's timer; the real clock by default. */
  clock?: TimerClock;
}

export interface AgentLog {
  load(): Promise<void>;
  add(row: NewRow): RowHandle;
  /** Without `after`: the newest n rows. With it: the first n rows whose id is greater. */
  page(options: { n: number; after?: number }): AgentLogRow[];
  /** Resolves once every finished row is on disk. */
  flush(): Promise<void>;
}

export const AGENT_LOG_MAX_ROWS = 2000;

export function createAgentLog(deps: AgentLogDeps): AgentLog {
  const maxRows = deps.maxRows ?? AGENT_LOG_MAX_ROWS;
  const throttleMs = deps.throttleMs ?? 50;
  const clock = deps.clock ?? systemClock;
  const store: JsonLines<AgentLogRow> = createJsonLines({
    file: deps.file,
    maxRows,
    validate: validateRow,
    log: deps.log,
  });
  let rows: AgentLogRow[] = [];
  let nextId = 1;
  const writes = new Set<Promise<void>>();

  const persist = (row: AgentLogRow) => {
    const write = store
      .append(row)
      .catch((error: unknown) => deps.log.warn('agent log row not saved', { id: row.id, error: String(error) }))
      .finally(() => writes.delete(write));
    writes.add(write);
  };

  const remember = (row: AgentLogRow) => {
    rows.push(row);
    if (rows.length > maxRows) rows = rows.slice(-maxRows);
  };

  return {
    async load() {
      const loaded = [...(await store.load())].sort((a, b) => a.id - b.id);
      rows = loaded.map((r) => ({ ...r }));
      nextId = (loaded.at(-1)?.id ?? 0) + 1;
    },
    add(input) {
      const row: AgentLogRow = {
        id: nextId++,
        time: new Date(clock.now()).toISOString(),
        role: input.role,
        persona: input.persona,
        text: capText(input.text),
        ...(input.tool ? { tool: capJson(input.tool) } : {}),
        ...(input.error ? { error: true as const } : {}),
        pending: true,
      };
      remember(row);
      return createHandle(row, { broadcast: deps.broadcast, persist, throttleMs, clock });
    },
    page({ n, after }) {
      if (after === undefined) return rows.slice(-n).map(copy);
      return rows
        .filter((r) => r.id > after)
        .slice(0, n)
        .map(copy);
    },
    async flush() {
      while (writes.size > 0) await Promise.all([...writes]);
    },
  };
}

const copy = (row: AgentLogRow): AgentLogRow => structuredClone(row);

interface HandleDeps {
  broadcast: (frame: AgentLogFrame) => void;
  persist: (row: AgentLogRow) => void;
  throttleMs: number;
  clock: TimerClock;
}

/** Updates are coalesced: at most one frame per throttle interval, always ending on the latest. */
function createHandle(row: AgentLogRow, deps: HandleDeps): RowHandle {
  let lastSent = 0;
  /** Cancels the pending coalesced update, while one is pending. */
  let timer: (() => void) | undefined;
  let done = false;
  const send = () => {
    timer = undefined;
    lastSent = deps.clock.now();
    deps.broadcast({ type: 'agent_log', row: copy(row) });
  };
  const changed = () => {
    if (timer) return;
    const wait = lastSent + deps.throttleMs - deps.clock.now();
    if (wait <= 0) send();
    else timer = deps.clock.schedule(send, wait);
  };
  const apply = (patch: RowPatch) => {
    if (patch.text !== undefined) row.text = capText(patch.text);
    if (patch.tool !== undefined) row.tool = capJson(patch.tool);
    if (patch.error) row.error = true;
  };
  send();
  return {
    id: row.id,
    append(text) {
      if (done || text === '') return;
      row.text = capText(row.text + text);
      changed();
    },
    update(patch) {
      if (done) return;
      apply(patch);
      changed();
    },
    finish(patch = {}) {
      if (done) return;
      done = true;
      apply(patch);
      delete row.pending;
      timer?.();
      send();
      deps.persist(copy(row));
    },
  };
}
