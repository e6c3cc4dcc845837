/**
 * A faithful stand-in for the hosted platform's device-facing routes (issue 10, item 9;
 * ARCHITECTURE §7: test doubles are faithful servers of the documented protocol). It runs on
 * node:http at 127.0.0.1, port 0, on an injectable clock, and is itself tested against the
 * spec's statements in emulator.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { askRoute, defaultAskScript, type EmuAskScript } from './emulator-ask.ts';
import { fail, sessionUser, type EmuContext, type EmuReply, type EmuRequest } from './emulator-context.ts';
import { DEVICE_MEDIA, DEVICE_ROUTES, storeMedia } from './emulator-device-routes.ts';
import { send } from './emulator-relay.ts';
import { SESSION_ROUTES } from './emulator-session-routes.ts';
import { addUser, createEmuState, isOnline } from './emulator-state.ts';

/** Options of the emulator. */
export interface PlatformEmulatorOptions {
  /** The clock behind presence, retention and timestamps; Date.now by default. */
  now?: () => number;
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
  setUnread(userId: string, unread: number): void;
  /** sendPushToUser: a notify envelope to every device that beat within 120 s (platform-api.md "Web Push" 3). */
  pushToUser(
    userId: string,
    push: { title?: string; body?: string; url?: string; tag?: string },
  ): { sent: number; pruned: number; relayed: number };
  /** Serves `bytes` at `path` (firmware manifests and files); returns the absolute URL. */
  hostFile(path: string, bytes: Uint8Array | string, contentType?: string): string;
  /** While on, every connection is cut: the client sees a transport error. */
  setOutage(on: boolean): void;
  /** While on, worker-backed routes answer as a proxy whose worker is down. */
  setWorkerDown(on: boolean): void;
  /** Replaces the scripted agent behind POST /api/devices/ask (default: echoes the text). */
  setAskScript(script: EmuAskScript): void;
  close(): Promise<void>;
}

const MAX_BODY = 12 * 1024 * 1024;

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
  if (reply.sse) return void writeSse(res, reply.sse);
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

/** Frames go out one write at a time, a tick apart, so the client reads a real stream. */
async function writeSse(res: ServerResponse, frames: string[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const frame of frames) {
    if (res.destroyed) return;
    res.write(frame);
    await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

function route(req: EmuRequest, ctx: EmuContext, files: Map<string, { bytes: Buffer; contentType: string }>): EmuReply {
  const key = `${req.method} ${req.path}`;
  const handler = DEVICE_ROUTES[key] ?? SESSION_ROUTES[key];
  if (handler) return handler(req, ctx);
  if (key === 'POST /api/devices/ask') return ctx.ask(req, ctx);
  if (key === 'POST /api/media') return media(req, ctx);
  const served =
    req.method === 'GET'
      ? req.path.startsWith('/media/')
        ? ctx.media.get(req.path.slice(7))
        : files.get(req.path)
      : undefined;
  return served ? { status: 200, raw: served } : fail(404, 'not found');
}

/** POST /api/media takes a session, or device credentials in the body (platform-api.md "Location and media"). */
function media(req: EmuRequest, ctx: EmuContext): EmuReply {
  if (req.body.deviceId !== undefined || req.body.token !== undefined) return DEVICE_MEDIA(req, ctx);
  const userId = sessionUser(req, ctx);
  return userId ? storeMedia(req, ctx, userId) : fail(401, 'login required');
}

/** Starts the emulator on 127.0.0.1, port 0. */
export async function startPlatformEmulator(options: PlatformEmulatorOptions = {}): Promise<PlatformEmulator> {
  const state = createEmuState(options.now ?? Date.now);
  let origin = '';
  const ctx: EmuContext = {
    state,
    relay: { rows: [] },
    media: new Map(),
    transcripts: [],
    firmware: new Map(),
    origin: () => origin,
    workerDown: false,
    ask: askRoute(() => askScript),
  };
  let askScript: EmuAskScript = defaultAskScript;
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
      write(
        res,
        route(
          { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body, headers: req.headers },
          ctx,
          files,
        ),
      );
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
      const body = reply.body as { device_id?: string; device_token?: string; error?: string };
      if (reply.status !== 200 || !body.device_id || !body.device_token)
        throw new Error(`enrolDevice failed: ${body.error ?? reply.status}`);
      return { deviceId: body.device_id, token: body.device_token };
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
    setWorkerDown: (on) => void (ctx.workerDown = on),
    setAskScript: (script) => void (askScript = script),
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
