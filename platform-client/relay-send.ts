/**
 * Relay-send outcomes as the documented kinds (docs/platform.md, "Errors": queued,
 * no_such_device, too_big, bad_request, server_key, relay_fault, unreachable, no_envelope),
 * each with `delivered` and `retryable`. Only refusals that happen before the insert may claim
 * delivered: 'no' (docs/platform.md, "Devices"); a fault after the request left us is 'unknown'.
 */
import { LIMITS, WORKER_ERRORS } from './limits.ts';
import type { PlatformAnswer } from './platform-http.ts';
import { jsonBytes } from './reply-fit.ts';
import type { Outcome, PlatformFailure } from './types.ts';

/** Kinds of a relay-send outcome. */
export type RelaySendKind =
  | 'queued'
  | 'no_such_device'
  | 'too_big'
  | 'bad_request'
  | 'server_key'
  | 'relay_fault'
  | 'unreachable'
  | 'no_envelope'
  /**
   * This client's addition: the contract's kinds describe the platform's own web library, whose
   * 401 is its internal key (server_key). A device holds the owner's token instead, and a 401
   * `login required` means that token was refused.
   */
  | 'session_refused';

/** A queued envelope. */
export interface RelayQueued {
  queued: true;
  kind: 'queued';
  id: string;
}

/** A send that did not queue. */
export interface RelayNotQueued {
  queued: false;
  kind: Exclude<RelaySendKind, 'queued'>;
  error: string;
  delivered: 'no' | 'unknown';
  retryable: boolean;
}

/** The outcome of POST /api/devices/relay. */
export type RelaySendResult = RelayQueued | RelayNotQueued;

function notQueued(
  kind: RelayNotQueued['kind'],
  error: string,
  delivered: 'no' | 'unknown',
  retryable: boolean,
): RelayNotQueued {
  return { queued: false, kind, error, delivered, retryable };
}

/** Classifies a failed send by its status and exact worker string. */
export function classifySendFailure(failure: PlatformFailure): RelayNotQueued {
  const { status, message } = failure;
  if (status === undefined) {
    // The request threw (refused, reset, timed out): it may have been written before the fault.
    return failure.kind === 'bad_response'
      ? notQueued('no_envelope', message, 'unknown', false)
      : notQueued('unreachable', message, 'unknown', true);
  }
  if (status === 404 || failure.workerError === WORKER_ERRORS.deviceNotFound)
    return notQueued('no_such_device', message, 'no', false);
  if (failure.workerError === WORKER_ERRORS.payloadTooBig || status === 413)
    return notQueued('too_big', message, 'no', false);
  if (status === 401 && failure.workerError === WORKER_ERRORS.loginRequired)
    return notQueued('session_refused', 'the platform refused the owner session token', 'no', false);
  // Any other 401 is the platform's own internal key being refused before the insert.
  if (status === 401) return notQueued('server_key', message, 'no', false);
  // 424 is the proxy's "registry unreachable": the worker faulted, possibly after writing the row.
  if (status >= 500 || status === 424) return notQueued('relay_fault', message, 'unknown', true);
  if (status >= 200 && status < 300) return notQueued('no_envelope', message, 'unknown', false);
  // bad_request is "other 400" (docs/platform.md, "Devices"). Other 4xx (a limiter's 429, 403, 422) are not
  // documented as refusals before the insert, so delivery is unknown, and a resend could queue a
  // second invoke: not retryable.
  if (status === 400) return notQueued('bad_request', message, 'no', false);
  return notQueued('relay_fault', message, 'unknown', false);
}

/** Classifies the outcome of a relay send. */
export function classifyRelaySend(outcome: Outcome<PlatformAnswer>): RelaySendResult {
  if (!outcome.ok) return classifySendFailure(outcome.failure);
  const id = outcome.value.body.id;
  if (typeof id === 'string' || typeof id === 'number') return { queued: true, kind: 'queued', id: String(id) };
  return notQueued('no_envelope', 'the platform answered without an envelope id', 'unknown', false);
}

/** The refusal for an envelope over 8192 bytes, decided before sending. */
export function tooBigLocally(envelope: unknown): RelayNotQueued | null {
  if (jsonBytes(envelope) <= LIMITS.relayPayloadBytes) return null;
  return notQueued('too_big', WORKER_ERRORS.payloadTooBig, 'no', false);
}
