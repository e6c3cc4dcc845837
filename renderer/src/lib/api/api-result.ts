/**
 * What every HTTP call of the dashboard returns: data, or a failure with the cockpit's error code
 * and a message a person can read. Raw fetch errors never leave lib/api.
 */
import type { ErrorBody } from '../../../../server/contract/index.ts';

export type ApiResult<T> = { ok: true; status: number; data: T } | ApiFailure;

/** Failures the dashboard names itself: no answer, an answer in a shape it does not know, a passkey prompt refused. */
export type DashboardFailureCode =
  | 'NETWORK'
  | 'TIMEOUT'
  | 'BAD_RESPONSE'
  | 'BAD_ANSWER'
  | 'PASSKEY_EXISTS'
  | 'PASSKEY_CANCELLED'
  | 'PASSKEY_INSECURE'
  | 'PASSKEY_UNSUPPORTED'
  | 'PASSKEY_FAILED';

/**
 * The cockpit's error code (server/contract/errors.ts), one of the dashboard's own, or `HTTP_<status>`
 * when an error answer carried no code. Typed, so a code compared or switched on must exist.
 */
export type FailureCode = ErrorBody['code'] | DashboardFailureCode | `HTTP_${number}`;

export interface ApiFailure {
  ok: false;
  /** HTTP status, or 0 when no answer came back at all. */
  status: number;
  code: FailureCode;
  message: string;
}

export function networkFailure(timedOut: boolean): ApiFailure {
  return timedOut
    ? { ok: false, status: 0, code: 'TIMEOUT', message: 'The cockpit server did not answer in time.' }
    : { ok: false, status: 0, code: 'NETWORK', message: 'The cockpit server cannot be reached.' };
}

/** Turns an error response into a failure, trusting the `{error, code}` body when it has one. */
export function failureFromBody(status: number, body: unknown): ApiFailure {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  // Taken as the cockpit sent it: a code this dashboard does not know is still shown with its message.
  const code: FailureCode =
    typeof record.code === 'string' && record.code !== '' ? (record.code as ErrorBody['code']) : `HTTP_${status}`;
  const message =
    typeof record.error === 'string' && record.error !== '' ? record.error : `The cockpit answered ${status}.`;
  return { ok: false, status, code, message };
}
