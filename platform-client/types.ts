/**
 * Shapes shared across the platform client. The console satisfies PlatformLog with its own
 * logger and passes a Scheduler only in tests; everything else has a default.
 */

/** The slice of the console's logger this library uses (docs/architecture.md, "Folders and the direction of imports": no server/ imports). */
export interface PlatformLog {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Time and timers, injected so cadence tests run on a manual clock. A timer callback may
 * return a promise: a manual scheduler awaits it before moving time on, the real one does not.
 */
export interface Scheduler {
  now(): number;
  /** Runs `fn` once after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void | Promise<void>): () => void;
}

/** Why a platform request failed; the kinds follow docs/architecture.md, "Requests" plus the transport cases. */
export type FailureKind =
  | 'unauthorized'
  | 'not_found'
  | 'too_large'
  | 'bad_request'
  | 'conflict'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'transport'
  | 'bad_response';

/** A failed request as a value: kind, the HTTP status when there was one, a human message. */
export interface PlatformFailure {
  kind: FailureKind;
  message: string;
  status?: number;
  /** The worker's `error` string verbatim, for classification on exact strings. */
  workerError?: string;
  retryable: boolean;
}

/** Errors as values (house style): either the value or a failure with a kind. */
export type Outcome<T, F = PlatformFailure> = { ok: true; value: T } | { ok: false; failure: F };

/** The fetch signature the client needs; Node's global fetch satisfies it. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Builds a successful outcome. */
export function success<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** Builds a failed outcome. */
export function failed<F>(failure: F): { ok: false; failure: F } {
  return { ok: false, failure };
}
