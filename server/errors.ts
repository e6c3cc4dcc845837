/**
 * The error catalogue. Every expected failure in the cockpit is an AppError with a code from
 * this table; one Koa middleware (server/http/error-handler.ts) renders it as
 * `{error, code}` with the status below. The README's error table lists every code, and a
 * test keeps the two in step.
 */
import type { ErrorCode, ErrorKind, WsCloseCodes } from './contract/errors.ts';

export type { ErrorCode, ErrorKind };

export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = Object.freeze({
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
  timeout: 504,
});

/** Every code the cockpit can answer with, its kind and a one-line meaning for the README. */
export const ERROR_CODES = Object.freeze({
  BAD_REQUEST: { kind: 'bad_request', meaning: 'a field is missing, mistyped or out of range' },
  BAD_JSON: { kind: 'bad_request', meaning: 'the body is not valid JSON' },
  AUTH_REQUIRED: { kind: 'unauthorized', meaning: 'no valid credential was presented' },
  AUTH_FORBIDDEN: { kind: 'forbidden', meaning: 'the credential may not do this' },
  ORIGIN_REFUSED: { kind: 'forbidden', meaning: 'a control request, a write on the session cookie, or a keyless one from this machine, came from a foreign origin' },
  NOT_FOUND: { kind: 'not_found', meaning: 'no such route or resource' },
  MOVE_UNKNOWN: { kind: 'not_found', meaning: 'the move is not in the library' },
  CONFLICT: { kind: 'conflict', meaning: 'the request conflicts with the current state' },
  STOP_LATCHED: { kind: 'conflict', meaning: 'the latched stop is engaged; resume first' },
  ROBOT_APP_LOCKED: { kind: 'conflict', meaning: 'a daemon app or remote session holds the robot; the body names it in `holder`' },
  RATE_LIMITED: { kind: 'rate_limited', meaning: 'too many control requests per second' },
  BODY_TOO_LARGE: { kind: 'too_large', meaning: 'the request body is over the limit' },
  DAEMON_UNREACHABLE: { kind: 'unavailable', meaning: 'the robot daemon does not answer' },
  DAEMON_STOPPED: { kind: 'unavailable', meaning: 'the daemon backend is not running' },
  DAEMON_TIMEOUT: { kind: 'unavailable', meaning: 'the daemon did not answer in time' },
  DAEMON_ERROR: { kind: 'upstream', meaning: 'the daemon refused or failed the request' },
  STATE_UNAVAILABLE: { kind: 'unavailable', meaning: 'no fresh robot state yet' },
  CAMERA_NO_FRAME: { kind: 'unavailable', meaning: 'the camera has no frame yet' },
  CAMERA_BUSY: { kind: 'unavailable', meaning: 'the camera already serves as many MJPEG viewers as it may' },
  NOT_CONFIGURED: { kind: 'unavailable', meaning: 'the feature needs configuration first' },
  PLATFORM_UNREACHABLE: { kind: 'unavailable', meaning: 'the hosted platform did not answer; try again' },
  STORAGE_FAILED: { kind: 'unavailable', meaning: 'a file in the data dir could not be written; nothing changed' },
  TIMEOUT: { kind: 'timeout', meaning: 'the operation did not finish in time' },
} as const satisfies Record<ErrorCode, { kind: ErrorKind; meaning: string }>);

/** WebSocket close codes, beside the HTTP ones so there is one place to look (server/contract/errors.ts). */
export const WS_CLOSE = Object.freeze({
  GOING_AWAY: 1001,
  /** The server failed while handling this one socket; other sockets are unaffected. */
  INTERNAL: 1011,
  UNAUTHORIZED: 4401,
  FORBIDDEN: 4403,
  NOT_FOUND: 4404,
} as const satisfies WsCloseCodes);

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly status: number;
  /** Extra headers the response must carry (Retry-After on 429). */
  readonly headers: Readonly<Record<string, string>>;
  /** Members added to the `{error, code}` body, e.g. who holds the robot for ROBOT_APP_LOCKED. */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.extra = extra;
    this.name = 'AppError';
    this.code = code;
    this.kind = ERROR_CODES[code].kind;
    this.status = STATUS_BY_KIND[this.kind];
    this.headers = headers;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/**
 * The human message of anything thrown, for logs, receipts and 4xx bodies: an Error's message,
 * else the `message` of an error-like object, else the value as text. The one definition.
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}

/** Shorthand for the most common case: a named field is wrong. */
export function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', message);
}
