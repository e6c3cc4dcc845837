/**
 * A log line as the cockpit writes it (one JSON object per line, secrets already redacted) and as
 * the diagnostics routes (server/desktop/routes/diagnostics-routes.ts) hand it to the dashboard.
 * Declared once for the cockpit and the dashboard (docs/contract.md).
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogRecord {
  /** ISO time. */
  time: string;
  level: LogLevel;
  scope: string;
  msg: string;
  /** Everything else the record carries. */
  [field: string]: unknown;
}

/** GET /api/console/diagnostics/logs: the most recent records at a level or above, oldest first. */
export interface RecentLogs {
  records: LogRecord[];
}
