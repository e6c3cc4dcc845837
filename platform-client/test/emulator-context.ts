/** Shared request, reply and context shapes of the emulator's route modules. */
import type { EmuRelay } from './emulator-relay.ts';
import { authDevice, type EmuDevice, type EmuState } from './emulator-state.ts';

/** A parsed request. */
export interface EmuRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** The writing end of a live server-sent event stream (the chat stream, a slow device ask). */
export interface SseOut {
  /** Writes `data: <payload>` and a blank line; a string is written as it is, anything else as JSON. */
  data(value: unknown): void;
  /** Writes a comment frame `: <text>` (a keep-alive). */
  comment(text: string): void;
  /** True once the client went away or the stream ended. */
  readonly closed: boolean;
  /** Resolves when the client goes away. */
  readonly gone: Promise<void>;
}

/** A reply: JSON, raw bytes with a content type, fixed SSE frames, or a live SSE stream. */
export interface EmuReply {
  status: number;
  body?: unknown;
  raw?: { bytes: Buffer; contentType: string };
  sse?: string[];
  /** A stream written as things happen; the response ends when the promise settles. */
  live?: (out: SseOut) => Promise<void>;
}

/** Timers of the emulator (keep-alives), on the same clock as `state.now`. */
export interface EmuTimers {
  after(ms: number, fn: () => void): () => void;
}

/**
 * How a dead worker shows (docs/platform.md, "Devices" and docs/platform.md, "Errors" both allow a reading):
 * `down` is the proxy's 424 `registry unreachable` for a worker that refused or failed; `hang` is
 * the 503 {error} after the 10 s bound (the emulator answers at once instead of waiting it out).
 */
export type WorkerDown = false | 'down' | 'hang';

/** A firmware pointer as stored per channel. */
export interface EmuFirmware {
  version: string;
  url: string;
  sha256: string;
  updated_at: string;
  force?: '1';
}

/** Everything a route can touch. */
export interface EmuContext {
  state: EmuState;
  relay: EmuRelay;
  media: Map<string, { bytes: Buffer; contentType: string; userId: string }>;
  transcripts: Array<{
    id: string;
    deviceId: string;
    text: string;
    label?: string;
    audioUrl?: string;
    durationS?: number;
    at: number;
  }>;
  firmware: Map<string, EmuFirmware>;
  origin: () => string;
  /** When set, worker-backed routes answer as a proxy whose worker is down or hung. */
  workerDown: WorkerDown;
  /**
   * The 401 string for a device-auth miss. docs/platform.md, "Devices" gives "unauthorized" and "unknown
   * device" as the one answer; both are readings a client must take as a strike.
   */
  deviceMiss: 'unauthorized' | 'unknown device';
  /** False: the firmware routes answer 404 with an HTML page, as a platform without them does. */
  firmwareOffered: boolean;
  timers: EmuTimers;
  /** Handlers the emulator adds beyond the fixed tables (ask, chat, endpoint devices). */
  extra: Record<string, EmuHandler>;
}

/** A route handler; live replies stream, and a few answers wait for another request (tool-result). */
export type EmuHandler = (req: EmuRequest, ctx: EmuContext) => EmuReply;

/** A JSON error reply `{error}` (docs/platform.md, "Errors"). */
export function fail(status: number, error: string, extra: Record<string, unknown> = {}): EmuReply {
  return { status, body: { error, ...extra } };
}

/** A 200 JSON reply. */
export function ok(body: Record<string, unknown> = {}): EmuReply {
  return { status: 200, body: { ok: true, ...body } };
}

/** The user behind a session cookie or a Bearer command-line token, or null. */
export function sessionUser(req: EmuRequest, ctx: EmuContext): string | null {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : null;
  const cookie =
    typeof req.headers.cookie === 'string' ? /(?:^|;\s*)svc_session=([^;]+)/.exec(req.headers.cookie)?.[1] : undefined;
  const token = bearer ?? cookie ?? null;
  return token === null ? null : (ctx.state.sessions.get(token) ?? null);
}

/** The device authenticated by the body, or null; the credentials are checked like the worker does. */
export function bodyDevice(req: EmuRequest, ctx: EmuContext): EmuDevice | null {
  return authDevice(ctx.state, req.body.deviceId, req.body.token);
}

/** The single 401 every device-auth miss gets (docs/platform.md, "Devices"), in the emulator's current reading. */
export function deviceUnauthorized(ctx: EmuContext): EmuReply {
  return fail(401, ctx.deviceMiss);
}
/** The proxy's answer when its worker is unreachable (docs/platform.md, "Devices"). */
export const REGISTRY_UNREACHABLE = fail(424, 'registry unreachable');

/**
 * The answer of a worker-backed route while the worker is down or hung; `retryableStatus` routes
 * (firmware, media) answer 503 with `retryable: true` instead of 424 (docs/platform.md, "Devices").
 */
export function workerDownReply(ctx: EmuContext, retryableStatus = false): EmuReply | null {
  if (!ctx.workerDown) return null;
  if (retryableStatus) return fail(503, 'unavailable', { retryable: true });
  return ctx.workerDown === 'hang' ? fail(503, 'worker did not answer in time') : REGISTRY_UNREACHABLE;
}

/** A string field of at most `max` characters, or undefined when absent; null when invalid. */
export function optionalString(value: unknown, max: number): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' && value.length <= max ? value : null;
}
