/**
 * The most recent log records in memory, for the dashboard's log viewer and the diagnostics
 * bundle. Records arrive already redacted (server/log.ts redacts before any sink sees them).
 */
import type { LogRecord } from '../log.ts';

export interface LogRing {
  push(record: LogRecord): void;
  recent(options?: { limit?: number; minLevel?: LogRecord['level'] }): LogRecord[];
}

const RANK: Record<LogRecord['level'], number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogRing(capacity = 1000): LogRing {
  const records: LogRecord[] = [];
  return {
    push(record) {
      records.push(record);
      if (records.length > capacity) records.splice(0, records.length - capacity);
    },
    recent({ limit = 200, minLevel = 'debug' } = {}) {
      return records.filter((r) => RANK[r.level] >= RANK[minLevel]).slice(-limit);
    },
  };
}

/** A log sink that keeps records in the ring and still writes them where they went before. */
export function teeSink(ring: LogRing, next: (record: LogRecord) => void): (record: LogRecord) => void {
  return (record) => {
    ring.push(record);
    next(record);
  };
}
