/**
 * One way to call the platform: JSON in, JSON out, a 15 s bound on every request (the
 * firmware's figure, docs/platform.md, "Errors") and failures turned into values whose
 * kind is decided on the status and the worker's exact error string. Raw fetch errors never
 * travel upward.
 */
import { readBytesUpTo } from './body-read.ts';
import { realDeadlineTimer, withDeadline, type DeadlineTimer } from './deadline.ts';
import { CADENCE, READ, WORKER_ERRORS } from './limits.ts';
import type { FailureKind, FetchLike, Outcome, PlatformFailure } from './types.ts';

/** One request to the platform. `path` is relative to the platform origin. */
export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** Owner session or command-line token for session routes (docs/platform.md, "Authentication"). */
  bearer?: string;
  /** A bound of its own (media uploads); otherwise the client's 15 s. */
  timeoutMs?: number;
}

/** A successful platform answer: the status and the parsed JSON body. */
export interface PlatformAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The HTTP client of the platform. */
export interface PlatformHttp {
  send(request: PlatformRequest): Promise<Outcome<PlatformAnswer>>;
  /** GET an absolute URL as bytes (firmware manifests), of at most `maxBytes`. */
  getBytes(url: string, maxBytes: number): Promise<Outcome<Uint8Array>>;
}

/** Options of createPlatformHttp. */
export interface PlatformHttpOptions {
  /** The platform origin, read per request so a re-enrolment takes effect at once. */
  baseUrl: () => string;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** The timer of each request's bound (deadline.ts); tests pass one that records the bound or fires it by hand. */
  deadlineTimer?: DeadlineTimer;
}

/** Kind of an HTTP failure, decided on the status first and the exact worker string second. */
export function kindOfStatus(status: number, workerError: string | undefined): FailureKind {
  // A wrong token, a revoked device and an unknown id are one answer (docs/platform.md, "Devices");
  // the strings are matched too, since some proxies relay them under another status.
  if (status === 401 || workerError === WORKER_ERRORS.unauthorized || workerError === WORKER_ERRORS.unknownDevice)
    return 'unauthorized';
  if (workerError === WORKER_ERRORS.payloadTooBig || status === 413) return 'too_large';
  // The worker's "envelope not found" is final whatever status the proxy relays it under (the
  // platform itself answers it as a 424): the request row is gone, a resend cannot land.
  if (status === 404 || workerError === WORKER_ERRORS.envelopeNotFound) return 'not_found';
  if (status === 409) return 'conflict';
  // A limiter's refusal: only session routes have one (device routes are outside it, docs/platform.md
  // "Endpoints"). Not retried at once: the caller's own cadence is the retry.
  if (status === 429) return 'rate_limited';
  // 424 is the proxy's "registry unreachable" (docs/platform.md, "Devices"): a worker fault, not ours.
  if (status === 424 || status >= 500 || workerError === WORKER_ERRORS.registryUnreachable) return 'unavailable';
  return 'bad_request';
}

/** The most of the platform's error string a failure's message repeats. */
const ERROR_CHARS = 200;

/** The platform's own words, bounded for the dashboard and the log whatever it sent. */
export function platformWords(text: string): string {
  return text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text;
}

/** Turns an HTTP error status and body into a failure value. */
export function httpFailure(status: number, body: unknown): PlatformFailure {
  const workerError =
    typeof (body as { error?: unknown })?.error === 'string' ? (body as { error: string }).error : undefined;
  const kind = kindOfStatus(status, workerError);
  const failure: PlatformFailure = {
    kind,
    status,
    message: workerError ? `platform answered ${status}: ${platformWords(workerError)}` : `platform answered ${status}`,
    retryable: kind === 'unavailable' || (body as { retryable?: unknown })?.retryable === true,
  };
  if (workerError !== undefined) failure.workerError = workerError;
  return failure;
}

/**
 * A 2xx whose body could not be read: the platform took the request and only its answer is odd.
 * A write in that state must not be sent again (a reply PATCHed twice is two answers), and a
 * result it carried counts as delivered.
 */
export function tookUnreadably(failure: PlatformFailure): boolean {
  return (
    failure.kind === 'bad_response' && failure.status !== undefined && failure.status >= 200 && failure.status < 300
  );
}

/** Turns a thrown fetch into a failure value (timeout or transport), without the raw error. */
export function thrownFailure(error: unknown, timeoutMs: number): PlatformFailure {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return { kind: 'timeout', message: `platform did not answer within ${timeoutMs / 1000} s`, retryable: true };
  }
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  return { kind: 'transport', message: `platform unreachable${cause ? ` (${cause})` : ''}`, retryable: true };
}

const MiB = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;

/** Marks a body longer than READ.answerBytes. */
const TOO_LONG = Symbol('too long');

/** The body as JSON: `{}` when empty, undefined when it is not JSON, TOO_LONG past the ceiling. */
async function readJson(response: Response): Promise<unknown> {
  const bytes = await readBytesUpTo(response, READ.answerBytes);
  if (bytes === null) return TOO_LONG;
  const text = new TextDecoder().decode(bytes);
  if (text.length === 0) return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A whole answer as an outcome: the status decides, and a success must carry a JSON object. */
async function answerOf(response: Response): Promise<Outcome<PlatformAnswer>> {
  const body = await readJson(response);
  if (!response.ok) return { ok: false, failure: httpFailure(response.status, body === TOO_LONG ? undefined : body) };
  if (body === TOO_LONG) {
    const message = `platform answered with a body over ${MiB(READ.answerBytes)}`;
    return { ok: false, failure: { kind: 'bad_response', status: response.status, message, retryable: true } };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      failure: {
        kind: 'bad_response',
        status: response.status,
        message: 'platform answered with a body that is not a JSON object',
        retryable: true,
      },
    };
  }
  return { ok: true, value: { status: response.status, body: body as Record<string, unknown> } };
}

function requestInit(request: PlatformRequest, signal: AbortSignal): RequestInit {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.bearer) headers.authorization = `Bearer ${request.bearer}`;
  const init: RequestInit = {
    method: request.method,
    headers,
    redirect: 'error',
    signal,
  };
  if (request.body !== undefined) init.body = JSON.stringify(request.body);
  return init;
}

/** Creates the platform HTTP client. */
export function createPlatformHttp(options: PlatformHttpOptions): PlatformHttp {
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const defaultMs = options.timeoutMs ?? CADENCE.requestTimeoutMs;
  const timer = options.deadlineTimer ?? realDeadlineTimer;
  return {
    async send(request) {
      const timeoutMs = request.timeoutMs ?? defaultMs;
      try {
        // The bound covers the body too: a platform that answers 200 and then trickles must not hold a loop.
        return await withDeadline(
          timeoutMs,
          async (signal) =>
            answerOf(await fetchFn(`${options.baseUrl()}${request.path}`, requestInit(request, signal))),
          timer,
        );
      } catch (error) {
        return { ok: false, failure: thrownFailure(error, timeoutMs) };
      }
    },
    async getBytes(url, maxBytes) {
      try {
        return await withDeadline(
          defaultMs,
          async (signal): Promise<Outcome<Uint8Array>> => {
            // Downloads may follow redirects (a CDN in front of storage): the sha256 check is what trusts them.
            const response = await fetchFn(url, { redirect: 'follow', signal });
            if (!response.ok) {
              const body = await readJson(response);
              return { ok: false, failure: httpFailure(response.status, body === TOO_LONG ? undefined : body) };
            }
            const bytes = await readBytesUpTo(response, maxBytes);
            if (bytes !== null) return { ok: true, value: bytes };
            const message = `the file is over ${MiB(maxBytes)}`;
            return { ok: false, failure: { kind: 'bad_response', status: response.status, message, retryable: false } };
          },
          timer,
        );
      } catch (error) {
        return { ok: false, failure: thrownFailure(error, defaultMs) };
      }
    },
  };
}
