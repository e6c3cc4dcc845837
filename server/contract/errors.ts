/**
 * How the cockpit refuses (docs/contract.md, "Errors"): the `{error, code}` body of every HTTP
 * refusal and the close codes of its sockets. The values live in server/errors.ts, which the
 * compiler holds to these declarations; the dashboard, which may import only types, writes the
 * few it needs against them (renderer/src/lib/api/close-codes.ts).
 */

/** The kind of a refusal, which decides its HTTP status. */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'too_large'
  | 'unavailable'
  | 'timeout'
  | 'upstream';

/** Every code the cockpit can answer with; the README's error table says what each means. */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'BAD_JSON'
  | 'AUTH_REQUIRED'
  | 'AUTH_FORBIDDEN'
  | 'ORIGIN_REFUSED'
  | 'NOT_FOUND'
  | 'MOVE_UNKNOWN'
  | 'CONFLICT'
  | 'STOP_LATCHED'
  | 'ROBOT_APP_LOCKED'
  | 'RATE_LIMITED'
  | 'BODY_TOO_LARGE'
  | 'DAEMON_UNREACHABLE'
  | 'DAEMON_STOPPED'
  | 'DAEMON_TIMEOUT'
  | 'DAEMON_ERROR'
  | 'STATE_UNAVAILABLE'
  | 'CAMERA_NO_FRAME'
  | 'CAMERA_BUSY'
  | 'NOT_CONFIGURED'
  | 'PLATFORM_UNREACHABLE'
  | 'STORAGE_FAILED'
  | 'TIMEOUT';

/**
 * The body of every refusal; some codes add members (ROBOT_APP_LOCKED names the `holder`).
 * `INTERNAL` is the 500 of a failure nothing expected (server/http/error-handler.ts): a bug, so
 * it has no entry in the catalogue.
 */
export interface ErrorBody {
  error: string;
  code: ErrorCode | 'INTERNAL';
  [extra: string]: unknown;
}

/** WebSocket close codes, beside the HTTP ones so there is one place to look. */
export interface WsCloseCodes {
  GOING_AWAY: 1001;
  /** The server failed while handling this one socket; other sockets are unaffected. */
  INTERNAL: 1011;
  UNAUTHORIZED: 4401;
  FORBIDDEN: 4403;
  NOT_FOUND: 4404;
}

export type WsCloseCode = WsCloseCodes[keyof WsCloseCodes];
