/**
 * A faithful stand-in for the hosted platform's device-facing routes (
 * docs/testing.md, "Rules": test doubles are faithful servers of the documented protocol). It runs on
 * node:http at 127.0.0.1, port 0, on an injectable clock, and is itself tested against the
 * spec's statements in emulator.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { askRoute, defaultAskScript, type EmuAskScript } from './emulator-ask.ts';
import { chatRoute, createEmuChat, toolResultRoute, type EmuChat, type EmuChatScript } from './emulator-chat.ts';
import {
  fail,
  sessionUser,
  type EmuContext,
  type EmuReply,
  type EmuRequest,
  type EmuTimers,
  type WorkerDown,
} from './emulator-context.ts';
import { DEVICE_MEDIA, DEVICE_ROUTES, storeMedia } from './emulator-device-routes.ts';
import { defaultEndpointScript, endpointRoutes, type EmuEndpointScript } from './emulator-endpoint.ts';
import { writeFrames, writeLive } from './emulator-sse.ts';
import { send } from './emulator-relay.ts';
import { SESSION_ROUTES } from './emulator-session-routes.ts';
import { addUser, createEmuState, isOnline } from './emulator-state.ts';

/** Options of the emulator. */
export interface PlatformEmulatorOptions {
  /** The clock behind presence, retention and timestamps; Date.now by default. */
  now?: () => number;
  /** Timers of the keep-alives (`: ping`, `: thinking`), on the same clock; real timers by default. */
  timers?: EmuTimers;
}

/** A request as the emulator saw it, for assertions. */
export interface SeenRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  at: number;
}

/** A running emulator and its test handles. */
export interface PlatformEmulator {
  readonly url: string;
  readonly ctx: EmuContext;
  readonly requests: SeenRequest[];
  addUser(login: string): { userId: string; session: string };
  /** Enrols a pull device through POST /api/devices, as the owner would. */
  enrolDevice(session: string, name: string, extra?: Record<string, unknown>): { deviceId: string; token: string };
  /** The owner's unread count; null when the worker does not compute it (the reply leaves it out). */
  setUnread(userId: string, unread: number | null): void;
  /** sendPushToUser: a notify envelope to every device that beat within 120 s (docs/platform.md, "Web Push"). */
  pushToUser(
    userId: string,
    push: { title?: string; body?: string; url?: string; tag?: string },
  ): { sent: number; pruned: number; relayed: number };
  /** Serves `bytes` at `path` (firmware manifests and files); returns the absolute URL. */
  hostFile(path: string, bytes: Uint8Array | string, contentType?: string): string;
  /** While on, every connection is cut: the client sees a transport error. */
  setOutage(on: boolean): void;
  /**
   * While set, worker-backed routes answer as a proxy whose worker is down (`true` or `'down'`:
   * 424 registry unreachable) or hung (`'hang'`: 503 {error}); firmware and media say 503 retryable.
   */
  setWorkerDown(on: boolean | WorkerDown): void;
  /** The string of the device-auth 401: "unauthorized" (default) or "unknown device". */
  setDeviceMiss(text: 'unauthorized' | 'unknown device'): void;
  /** Off: /api/firmware/manifest answers 404 with an HTML page, as a running copy of the platform without firmware routes does. */
  setFirmwareOffered(on: boolean): void;
  /** Replaces the scripted agent behind POST /api/devices/ask (default: echoes the text). */
  setAskScript(script: EmuAskScript): void;
  /** The chat stream's state: its script, preflight refusal, tool results and turns. */
  readonly chat: EmuChat;
  /** Replaces the scripted agent behind POST /api/chat (default: echoes the last user message). */
  setChatScript(script: EmuChatScript): void;
  /** Replaces what endpoint devices answer (default: an echo and a fixed telemetry object). */
  setEndpointScript(script: EmuEndpointScript): void;
  close(): Promise<void>;
}

const MAX_BODY = 12 * 1024 * 1024;
/** What a web app without a route answers: its 404 page, not JSON. */
const NOT_FOUND_PAGE: EmuReply = {
  status: 404,
  raw: {
    bytes: Buffer.from('<!DOCTYPE html><html><body>404: This page could not be found.</body></html>'),
    contentType: 'text/html; charset=utf-8',
  },
};

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function write(res: ServerResponse, reply: EmuReply): void {
  if (reply.sse) return void writeFrames(res, reply.sse);
  if (reply.live) return void writeLive(res, reply.live);
  if (reply.raw) {
    res.writeHead(reply.status, {
      'content-type': reply.raw.contentType,
      'content-length': reply.raw.bytes.byteLength,
    });
    res.end(reply.raw.bytes);
    return;
  }
  const text = JSON.stringify(reply.body ?? {});
  res.writeHead(reply.status, { 'content-type': 'application/json' });
  res.end(text);
}

function route(
  req: EmuRequest,
  ctx: EmuContext,
  files: Map<string, { bytes: Buffer; contentType: string }>,
): EmuReply | Promise<EmuReply> {
  const key = `${req.method} ${req.path}`;
  if (!ctx.firmwareOffered && req.path === '/api/firmware/manifest') return NOT_FOUND_PAGE;
  const handler = DEVICE_ROUTES[key] ?? SESSION_ROUTES[key] ?? ctx.extra[key];
  if (handler) return handler(req, ctx);
  if (key === 'POST /api/media') return media(req, ctx);
  const served =
    req.method === 'GET'
      ? req.path.startsWith('/media/')
        ? ctx.media.get(req.path.slice(7))
        : files.get(req.path)
      : undefined;
  return served ? { status: 200, raw: served } : fail(404, 'not found');
}

/** POST /api/media takes a session, or device credentials in the body (docs/platform.md, "Other device routes"). */
function media(req: EmuRequest, ctx: EmuContext): EmuReply {
  if (req.body.deviceId !== undefined || req.body.token !== undefined) return DEVICE_MEDIA(req, ctx);
  const userId = sessionUser(req, ctx);
  return userId ? storeMedia(req, ctx, userId) : fail(401, 'login required');
}

/** Starts the emulator on 127.0.0.1, port 0. */
export async function startPlatformEmulator(options: PlatformEmulatorOptions = {}): Promise<PlatformEmulator> {
  const state = createEmuState(options.now ?? Date.now);
  let origin = '';
  let askScript: EmuAskScript = defaultAskScript;
  let endpointScript: EmuEndpointScript = defaultEndpointScript;
  const chat = createEmuChat();
  const timers: EmuTimers = options.timers ?? {
    after(ms, fn) {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    },
  };
  const ctx: EmuContext = {
    state,
    relay: { rows: [] },
    media: new Map(),
    transcripts: [],
    firmware: new Map(),
    origin: () => origin,
    workerDown: false,
    deviceMiss: 'unauthorized',
    firmwareOffered: true,
    timers,
    extra: {
      'POST /api/chat': chatRoute(chat),
      'POST /api/chat/tool-result': toolResultRoute(chat),
      ...endpointRoutes(() => endpointScript),
    },
  };
  const ask = askRoute(() => askScript);
  const files = new Map<string, { bytes: Buffer; contentType: string }>();
  const requests: SeenRequest[] = [];
  let outage = false;

  const server: Server = createServer((req, res) => {
    if (outage) return void req.socket.destroy();
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const body = await readBody(req);
      if (body === null) return write(res, fail(400, 'invalid JSON'));
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body, at: state.now() });
      const parsed = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body,
        headers: req.headers,
      };
      const key = `${parsed.method} ${parsed.path}`;
      write(res, await (key === 'POST /api/devices/ask' ? ask(parsed, ctx) : route(parsed, ctx, files)));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    ctx,
    requests,
    addUser: (login) => addUser(state, login),
    enrolDevice(session, name, extra = {}) {
      const reply = SESSION_ROUTES['POST /api/devices']!(
        {
          method: 'POST',
          path: '/api/devices',
          query: new URLSearchParams(),
          body: { name, ...extra },
          headers: { authorization: `Bearer ${session}` },
        },
        ctx,
      );
      const body = reply.body as { device_id?: string; device_token?: string | null; error?: string };
      // Endpoint devices get no token (docs/platform.md, "Devices"): theirs is the empty string here.
      if (reply.status !== 200 || !body.device_id || (extra.kind !== 'endpoint' && !body.device_token))
        throw new Error(`enrolDevice failed: ${body.error ?? reply.status}`);
      return { deviceId: body.device_id, token: body.device_token ?? '' };
    },
    setUnread(userId, unread) {
      const user = state.users.get(userId);
      if (user) user.unread = unread;
    },
    pushToUser(userId, push) {
      const title = (push.title ?? 'svc').slice(0, 100);
      const envelope = {
        type: 'notify',
        title,
        body: (push.body ?? '').slice(0, 400),
        tag: push.tag ?? 'svc-notify',
        url: push.url ?? '/',
      };
      const recent = [...state.devices.values()].filter(
        (d) => d.userId === userId && !d.revoked && d.lastSeen !== null && state.now() - d.lastSeen <= 120_000,
      );
      for (const device of recent) send(state, ctx.relay, userId, device.id, JSON.stringify(envelope));
      return { sent: 0, pruned: 0, relayed: recent.length };
    },
    hostFile(path, bytes, contentType = 'application/octet-stream') {
      files.set(path, { bytes: Buffer.from(bytes), contentType });
      return `${origin}${path}`;
    },
    setOutage: (on) => void (outage = on),
    setWorkerDown: (on) => void (ctx.workerDown = on === true ? 'down' : on),
    setDeviceMiss: (text) => void (ctx.deviceMiss = text),
    setFirmwareOffered: (on) => void (ctx.firmwareOffered = on),
    setAskScript: (script) => void (askScript = script),
    chat,
    setChatScript: (script) => void (chat.script = script),
    setEndpointScript: (script) => void (endpointScript = script),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether a device is currently present (for tests that check the 60 s window directly). */
export function emulatorSeesOnline(emulator: PlatformEmulator, deviceId: string): boolean {
  const device = emulator.ctx.state.devices.get(deviceId);
  return device ? isOnline(emulator.ctx.state, device) : false;
}
