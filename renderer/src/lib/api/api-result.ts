/**
 * What every HTTP call of the dashboard returns: data, or a failure with the cockpit's error code
 * and a message a person can read. Raw fetch errors never leave lib/api.
 */
export type ApiResult<T> = { ok: true; status: number; data: T } | ApiFailure;

export interface ApiFailure {
  ok: false;
  /** HTTP status, or 0 when no answer came back at all. */
  status: number;
  /** The cockpit's error code (`AUTH_REQUIRED`...), `NETWORK` or `TIMEOUT` when it did not answer. */
  code: string;
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
  const code = typeof record.code === 'string' && record.code !== '' ? record.code : `HTTP_${status}`;
  const message =
    typeof record.error === 'string' && record.error !== '' ? record.error : `The cockpit answered ${status}.`;
  return { ok: false, status, code, message };
}
