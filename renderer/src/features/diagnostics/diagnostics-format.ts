/** How the diagnostics card shows log records and names the bundle it saves. */
import type { LogEntry } from './diagnostics-api.ts';

/** Newest first: the cockpit keeps records oldest first, an operator reads from the top. */
export function newestFirst(records: readonly LogEntry[]): LogEntry[] {
  return [...records].reverse();
}

/** The local wall-clock time of a record, to the second; the raw text when it is not a date. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** The extra fields of a record as `key=value` lines; strings bare, anything else as JSON. */
export function fieldLines(fields: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(fields).map(([key, value]) => {
    if (typeof value === 'string') return `${key}=${value}`;
    try {
      return `${key}=${JSON.stringify(value) ?? String(value)}`;
    } catch {
      return `${key}=${String(value)}`;
    }
  });
}

/** The file the bundle is saved as, stamped like the cockpit's own Content-Disposition name. */
export function bundleFileName(nowMs: number): string {
  return `robot-cockpit-diagnostics-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}.json`;
}

/** The line under the log: how many records are shown, and from when. */
export function logSummary(count: number, level: string, updatedAtMs: number | null): string {
  if (updatedAtMs === null) return 'Loading the log…';
  const what = count === 1 ? '1 record' : `${count} records`;
  const floor = level === 'debug' ? '' : ` at ${level} or above`;
  return `${what}${floor}, newest first · updated ${clockTime(new Date(updatedAtMs).toISOString())}`;
}

/**
 * Keys for the rows that stay with their record across refreshes (so an unfolded row stays
 * unfolded): time, scope and message, numbered when the same record text repeats in one instant.
 */
export function rowKeys(records: readonly LogEntry[]): string[] {
  const seen = new Map<string, number>();
  return records.map((r) => {
    const base = `${r.time}|${r.scope}|${r.msg}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return `${base}|${n}`;
  });
}
