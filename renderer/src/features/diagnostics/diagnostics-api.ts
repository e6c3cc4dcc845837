/**
 * The operator diagnostics routes of the desktop server (server/desktop/routes/diagnostics-routes.ts) as the
 * diagnostics card calls them, through the session's HTTP client (lib/api does the fetching, with
 * the page's bearer: a plain download link could not carry it). Records are checked at the edge.
 */
import type { LogLevel } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { HttpClient } from '../../lib/api/http-client.ts';

export type { LogLevel };

// A record, so the compiler insists on every LogLevel of the contract and nothing else; the order is the card's.
const LEVELS: Record<LogLevel, true> = { debug: true, info: true, warn: true, error: true };
export const LOG_LEVELS = Object.keys(LEVELS) as readonly LogLevel[];

/** A LogRecord (server/contract/diagnostics.ts) as the card shows it: the four fields every record has, the rest apart. */
export interface LogEntry {
  time: string;
  level: LogLevel;
  scope: string;
  msg: string;
  /** Everything else the record carries (already redacted by the cockpit). */
  fields: Record<string, unknown>;
}

export interface DiagnosticsApi {
  /** The most recent `n` records at `level` or above, oldest first as the cockpit keeps them. */
  logs(level: LogLevel, n?: number): Promise<ApiResult<LogEntry[]>>;
  /** The whole bundle, parsed: versions, config without secrets, logs, health history. */
  bundle(): Promise<ApiResult<Record<string, unknown>>>;
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const isLevel = (u: unknown): u is LogLevel => LOG_LEVELS.includes(u as LogLevel);

/** One record, or null when it lacks the four fields every cockpit record has. */
export function readLogEntry(u: unknown): LogEntry | null {
  if (!isRecord(u)) return null;
  const { time, level, scope, msg, ...fields } = u;
  if (typeof time !== 'string' || !isLevel(level) || typeof scope !== 'string' || typeof msg !== 'string') return null;
  return { time, level, scope, msg, fields };
}

export function readLogs(u: unknown): LogEntry[] | null {
  if (!isRecord(u) || !Array.isArray(u.records)) return null;
  return u.records.map(readLogEntry).filter((r): r is LogEntry => r !== null);
}

const malformed = (what: string): ApiResult<never> => ({
  ok: false,
  status: 200,
  code: 'BAD_RESPONSE',
  message: `The cockpit sent ${what} in a shape this dashboard does not know.`,
});

export function createDiagnosticsApi(http: HttpClient): DiagnosticsApi {
  return {
    async logs(level, n = 200) {
      const result = await http.request<unknown>(`/api/console/diagnostics/logs?n=${n}&level=${level}`);
      if (!result.ok) return result;
      const records = readLogs(result.data);
      return records ? { ...result, data: records } : malformed('the log');
    },
    async bundle() {
      const result = await http.request<unknown>('/api/console/diagnostics/bundle');
      if (!result.ok) return result;
      return isRecord(result.data) ? { ...result, data: result.data } : malformed('the bundle');
    },
  };
}
