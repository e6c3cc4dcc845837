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

/** A reply: JSON, raw bytes with a content type, or server-sent event frames written one by one. */
export interface EmuReply {
  status: number;
  body?: unknown;
  raw?: { bytes: Buffer; contentType: string };
  sse?: string[];
}

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
  /** When set, worker-backed routes answer as a proxy whose worker is down (reference-notes §2.1). */
  workerDown: boolean;
  /** POST /api/devices/ask over the emulator's scripted agent. */
  ask: EmuHandler;
}

/** A route handler. */
export type EmuHandler = (req: EmuRequest, ctx: EmuContext) => EmuReply;

/** A JSON error reply `{error}` (platform-api.md "Errors"). */
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

/** The single 401 every device-auth miss gets (reference-notes §2.1). */
export const DEVICE_UNAUTHORIZED = fail(401, 'unauthorized');
/** The proxy's answer when its worker is unreachable (reference-notes §2.1). */
export const REGISTRY_UNREACHABLE = fail(424, 'registry unreachable');

/** A string field of at most `max` characters, or undefined when absent; null when invalid. */
export function optionalString(value: unknown, max: number): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' && value.length <= max ? value : null;
}
