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

/**
 * The most of one line of an app's output kept (as for a job's lines, job-tracker.ts). An app
 * may print lines of any length (an array, an encoded image): journald keeps up to 48 KiB of one
 * and the daemon's log stream sends frames of up to 1 MiB, and 500 such lines were kept for
 * each of five apps, logged whole and put whole into the diagnostics bundle.
 */
export const MAX_APP_LINE_CHARS = 4000;

const capText = (text: string): string =>
  text.length > MAX_APP_LINE_CHARS ? `${text.slice(0, MAX_APP_LINE_CHARS)}… [line cut]` : text;

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

/** One journal line as journald prints it (short-iso): its ISO time and the daemon's message. */
export function splitJournalLine(line: string): { time: string | null; message: string } {
  const journal = JOURNAL_LINE.exec(line);
  return journal ? { time: isoTime(journal[1] ?? ''), message: journal[2] ?? '' } : { time: null, message: line };
}

/** A message of the daemon as a record; a line without the logger prefix continues `previous`. */
export function readRecord(time: string | null, message: string, previous: JournalRecord | undefined): JournalRecord {
  const record = RECORD.exec(message);
  if (record)
    return { time, logger: record[1] ?? null, level: LEVELS[record[2] ?? 'INFO'] ?? 'info', text: record[3] ?? '' };
  return { time, logger: previous?.logger ?? null, level: previous?.level ?? 'info', text: message };
}

export function parseJournal(text: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '' || line.startsWith('-- ')) continue;
    const { time, message } = splitJournalLine(line);
    records.push(readRecord(time, message, records.at(-1)));
  }
  return records;
}

/**
 * Follows the daemon's records as they come and says which app each line of output belongs to:
 * the app named by the last `Starting app <name>` of the runner logger. Before any such line has
 * been seen (the journal's backlog began after it), `assume` names the app the cockpit knows runs.
 */
export function createAppFilter(assume: () => string | null = () => null): {
  push(record: JournalRecord): { app: string; line: AppLogLine } | null;
} {
  let current: string | null = null;
  let seenStart = false;
  return {
    push(record) {
      if (record.logger !== APP_RUNNER_LOGGER) return null;
      const started = /^Starting app (\S+)$/.exec(record.text);
      if (started) {
        current = started[1] ?? null;
        seenStart = true;
      }
      const app = seenStart ? current : assume();
      return app ? { app, line: { time: record.time, level: record.level, text: capText(record.text) } } : null;
    },
  };
}

/** The lines of the app's runs, oldest first, at most `limit` of the newest. */
export function appLines(records: JournalRecord[], app: string, limit = 500): AppLogLine[] {
  const filter = createAppFilter();
  const out: AppLogLine[] = [];
  for (const record of records) {
    const hit = filter.push(record);
    if (hit?.app === app) out.push(hit.line);
  }
  return out.slice(-limit);
}
