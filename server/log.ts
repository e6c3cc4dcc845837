/**
 * Structured logging: one JSON line per record on stderr, with secrets redacted before they
 * are written. Everything takes a Log by injection so tests can capture or silence it.
 */
// The record is a wire shape (the diagnostics routes hand it to the dashboard), so it and its
// level are the contract's: declarations only, so the log (used by every folder) still loads nothing.
import type { LogLevel, LogRecord } from './contract/diagnostics.ts';

export type { LogLevel, LogRecord };

export interface Log {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Log;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose values never reach a log line. */
const SECRET_KEY = /token|secret|password|authorization|cookie|key|credential/i;
/** Token-looking substrings inside messages (bearer values, ?token= query values). */
const SECRET_TEXT = /(bearer\s+|token=)[^\s&"']+/gi;
/** The user:password part of a URL (`https://user:pass@host/`), which a mistyped setting can carry. */
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"']+@/gi;

/** A text with its bearer values, `?token=` values and URL passwords replaced. */
export function redactText(text: string): string {
  return text.replace(SECRET_TEXT, '$1[redacted]').replace(URL_USERINFO, '$1[redacted]@');
}

/**
 * Deeper than any record or bundle section the cockpit builds: an app's log line in the
 * diagnostics bundle is five levels down (server/diagnostics/bundle.ts).
 */
const REDACT_DEPTH = 8;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  // Past the depth an object is left out, never copied unread: the bundle's app log lines were
  // one level past the old depth of 4, and went out with their bearer values.
  if (depth > REDACT_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
  return out;
}

export interface LogOptions {
  level?: LogLevel;
  scope?: string;
  /** Where records go; stderr JSON lines by default. */
  sink?: (record: LogRecord) => void;
}

/** The default destination: one JSON line per record on stderr. */
export const stderrSink = (record: LogRecord): void => {
  process.stderr.write(`${JSON.stringify(record)}\n`);
};

export function createLog(options: LogOptions = {}): Log {
  const min = RANK[options.level ?? 'info'];
  const sink = options.sink ?? stderrSink;
  const make = (scope: string): Log => {
    const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (RANK[level] < min) return;
      const safe = (fields ? redact(fields) : {}) as Record<string, unknown>;
      sink({ ...safe, time: new Date().toISOString(), level, scope, msg: redact(msg) as string });
    };
    return {
      debug: (m, f) => write('debug', m, f),
      info: (m, f) => write('info', m, f),
      warn: (m, f) => write('warn', m, f),
      error: (m, f) => write('error', m, f),
      child: (s) => make(scope ? `${scope}.${s}` : s),
    };
  };
  return make(options.scope ?? '');
}

/** A log that drops everything, for tests that do not inspect logs. */
export const silentLog: Log = createLog({ sink: () => {} });
