/**
 * Reading the daemon's log as journald prints it (`journalctl -o short-iso`, which is also what
 * the daemon's own WS /logs/ws/daemon sends) and keeping one app's output. The daemon formats
 * records as `<logger> - <LEVEL> - <message>`; an app's stdout and stderr are logged line by
 * line under `reachy_mini.apps.manager.runner`, between `Starting app <name>` and the next
 * `Starting app`. A line without the prefix continues the record before it (a multi-line
 * message such as the crash's "Last stderr output:").
 */
import type { AppLogLine } from '../contract/apps.ts';

export const APP_RUNNER_LOGGER = 'reachy_mini.apps.manager.runner';

export interface JournalRecord {
  time: string | null;
  logger: string | null;
  level: AppLogLine['level'];
  text: string;
}

// 2026-11-25T16:47:25+0100 reachy-mini reachy-mini-daemon[812]: <message>
const JOURNAL_LINE =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:[+-]\d{2}:?\d{2}|Z)?)\s+\S+\s+[^:\s]+(?:\[\d+\])?:\s?(.*)$/;
const RECORD = /^([A-Za-z_][\w.]*) - (DEBUG|INFO|WARNING|ERROR|CRITICAL) - (.*)$/;

const LEVELS: Record<string, AppLogLine['level']> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  CRITICAL: 'error',
};

/** journalctl's `-0100`-style offset made ISO (`-01:00`), so Date can read it. */
function isoTime(text: string): string | null {
  const fixed = text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2').replace(',', '.');
  const ms = Date.parse(fixed);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export function parseJournal(text: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.startsWith('-- ')) continue;
    const journal = JOURNAL_LINE.exec(line);
    const time = journal ? isoTime(journal[1] ?? '') : null;
    const message = journal ? (journal[2] ?? '') : line;
    const record = RECORD.exec(message);
    if (record) {
      records.push({
        time,
        logger: record[1] ?? null,
        level: LEVELS[record[2] ?? 'INFO'] ?? 'info',
        text: record[3] ?? '',
      });
      continue;
    }
    // A continuation line: it belongs to the record before it.
    const previous = records.at(-1);
    records.push({ time, logger: previous?.logger ?? null, level: previous?.level ?? 'info', text: message });
  }
  return records;
}

/** The lines of the app's runs, oldest first, at most `limit` of the newest. */
export function appLines(records: JournalRecord[], app: string, limit = 500): AppLogLine[] {
  const out: AppLogLine[] = [];
  let current: string | null = null;
  for (const record of records) {
    if (record.logger !== APP_RUNNER_LOGGER) continue;
    const started = /^Starting app (\S+)$/.exec(record.text);
    if (started) current = started[1] ?? null;
    if (current === app) out.push({ time: record.time, level: record.level, text: record.text });
  }
  return out.slice(-limit);
}
