/**
 * Device-authenticated routes of the emulator: heartbeat, relay poll and reply, event,
 * task-result, transcript, media and the firmware pointer (docs/platform.md, "Devices";
 * docs/platform.md, "Devices"). Every body carries {deviceId, token}.
 */
import { randomBytes } from 'node:crypto';
import {
  bodyDevice,
  deviceUnauthorized,
  fail,
  ok,
  optionalString,
  workerDownReply,
  type EmuContext,
  type EmuHandler,
  type EmuRequest,
} from './emulator-context.ts';
import { claim, deposit, normalisePayload, reply } from './emulator-relay.ts';
import { appendEvent, type EmuDevice } from './emulator-state.ts';

const PRIVATE_V4 =
  /^http:\/\/(10\.\d+\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|192\.168\.\d+\.\d+|169\.254\.\d+\.\d+)(:\d+)?(\/.*)?$/;
const EVENT_KINDS = ['nicla_wake', 'nicla_sentry', 'nicla_transcript', 'device_note'];
/**
 * docs/platform.md names no media types (docs/platform.md, "Devices" lists image and audio ones), so any
 * `type/subtype` is stored; "6 MB" is taken in its larger reading, 6 MiB, so a client that reads
 * either way is accepted.
 */
const MEDIA_TYPE = /^[a-z]+\/[a-z0-9.+-]+(;.*)?$/i;
const MEDIA_BYTES = 6 * 1024 * 1024;

/** Valid capability list: at most 32 entries of at most 32 characters (docs/platform.md, "Devices"). */
export function validCapabilities(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length <= 32 &&
    value.every((c) => typeof c === 'string' && c.length > 0 && c.length <= 32)
  );
}

/** Wraps a handler with device auth and the proxy's worker-down answer. */
export function device(
  handler: (req: EmuRequest, ctx: EmuContext, device: EmuDevice) => ReturnType<EmuHandler>,
  retryableDown = false,
): EmuHandler {
  return (req, ctx) => {
    const down = workerDownReply(ctx, retryableDown);
    if (down) return down;
    if (typeof req.body.deviceId !== 'string' || typeof req.body.token !== 'string')
      return fail(400, 'deviceId and token required');
    const found = bodyDevice(req, ctx);
    return found ? handler(req, ctx, found) : deviceUnauthorized(ctx);
  };
}

const heartbeat = device((req, ctx, dev) => {
  const { capabilities, lanUrl, wantUnread } = req.body;
  if (capabilities !== undefined && !validCapabilities(capabilities))
    return fail(400, 'capabilities must be at most 32 strings of at most 32 characters');
  dev.lastSeen = ctx.state.now();
  if (capabilities !== undefined) dev.capabilities = capabilities;
  // An invalid lanUrl is silently dropped, an absent one keeps the stored value (docs/platform.md, "Devices").
  if (typeof lanUrl === 'string' && PRIVATE_V4.test(lanUrl)) dev.lanUrl = new URL(lanUrl).origin;
  const computed = ctx.state.users.get(dev.userId)?.unread ?? null;
  // The proxy lifts unread into its reply only when the worker computed it (docs/platform.md, "Devices").
  const unread = (wantUnread === '1' || wantUnread === true) && computed !== null ? { unread: computed } : {};
  return ok(unread);
});

const poll = device((req, ctx, dev) => {
  const asked = typeof req.body.max === 'number' && Number.isFinite(req.body.max) ? Math.trunc(req.body.max) : 10;
  const max = Math.min(50, Math.max(1, asked));
  const messages = claim(ctx.state, ctx.relay, dev.id, max).map((r) => ({
    id: r.id,
    payload: r.payload,
    created_at: new Date(r.created_at).toISOString(),
  }));
  return ok({ messages });
});

const relayReply = device((req, ctx, dev) => {
  if (typeof req.body.inReplyTo !== 'string' || req.body.payload === undefined)
    return fail(400, 'inReplyTo and payload required');
  const payload = normalisePayload(req.body.payload);
  if (payload === null) return fail(400, 'payload must be valid JSON ≤8KB');
  const row = reply(ctx.state, ctx.relay, dev.userId, dev.id, req.body.inReplyTo, payload);
  return row ? ok() : fail(404, 'envelope not found');
});

const event = device((req, ctx, dev) => {
  if (typeof req.body.kind !== 'string' || !EVENT_KINDS.includes(req.body.kind)) return fail(400, 'kind not allowed');
  const detail = optionalString(req.body.detail, 300);
  if (detail === null) return fail(400, 'detail must be at most 300 characters');
  appendEvent(ctx.state, dev.userId, req.body.kind, { device: dev.id, detail });
  return ok();
});

const taskResult = device((req, ctx, dev) => {
  const { taskId } = req.body;
  if (typeof taskId !== 'string' || !/^[A-Za-z0-9_-]{1,48}$/.test(taskId))
    return fail(400, 'taskId must match [A-Za-z0-9_-]{1,48}');
  const summary = optionalString(req.body.summary, 140);
  const result = optionalString(req.body.result, 7000);
  if (summary === null || result === null) return fail(400, 'summary ≤140 and result ≤7000 characters');
  const ticket = `task_${dev.id.replace(/-/g, '').slice(0, 8)}_${taskId}`;
  deposit(ctx.state, ctx.relay, dev.userId, dev.id, ticket, JSON.stringify({ taskId, summary, result }));
  appendEvent(ctx.state, dev.userId, 'device_task_result', { ticket, summary });
  return ok({ ticket });
});

const transcript = device((req, ctx, dev) => {
  const { text, durationS } = req.body;
  if (typeof text !== 'string' || text.length === 0 || Buffer.byteLength(text) > 16_384)
    return fail(400, 'text required, at most 16 KB');
  const label = optionalString(req.body.label, 80);
  const audioUrl = optionalString(req.body.audioUrl, 300);
  if (label === null || audioUrl === null || (audioUrl !== undefined && !audioUrl.startsWith('https://')))
    return fail(400, 'label ≤80, audioUrl https ≤300');
  if (durationS !== undefined && !Number.isInteger(durationS)) return fail(400, 'durationS must be an integer');
  const id = randomBytes(8).toString('hex');
  ctx.transcripts.push({
    id,
    deviceId: dev.id,
    text,
    label,
    audioUrl,
    durationS: durationS as number | undefined,
    at: ctx.state.now(),
  });
  return ok({ id });
});

/** Stores base64 media and answers its worker URL (docs/platform.md, "Devices"). Also used for sessions. */
export function storeMedia(req: EmuRequest, ctx: EmuContext, userId: string): ReturnType<EmuHandler> {
  const { data, contentType } = req.body;
  if (typeof data !== 'string' || typeof contentType !== 'string') return fail(400, 'data and contentType required');
  if (!MEDIA_TYPE.test(contentType)) return fail(400, 'contentType must be a media type');
  const bytes = Buffer.from(data, 'base64');
  if (bytes.byteLength === 0) return fail(400, 'empty media');
  // The status of a validation failure is not shown (docs/platform.md, "Errors"): a plain 400.
  if (bytes.byteLength > MEDIA_BYTES) return fail(400, 'media must be at most 6 MB');
  const key = randomBytes(18).toString('base64url');
  ctx.media.set(key, { bytes, contentType, userId });
  return ok({ key, url: `${ctx.origin()}/media/${key}`, bytes: bytes.byteLength });
}

const media = device((req, ctx, dev) => storeMedia(req, ctx, dev.userId), true);

const firmware = device((req, ctx) => {
  if (typeof req.body.channel !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,31}$/.test(req.body.channel))
    return fail(400, 'channel required');
  return ok({ bundle: ctx.firmware.get(req.body.channel) ?? null });
}, true);

/** Device routes by "METHOD path". Media is dispatched by the emulator (session or device). */
export const DEVICE_ROUTES: Readonly<Record<string, EmuHandler>> = {
  'POST /api/devices/heartbeat': heartbeat,
  'PUT /api/devices/relay': poll,
  'PATCH /api/devices/relay': relayReply,
  'POST /api/devices/event': event,
  'POST /api/devices/task-result': taskResult,
  'POST /api/devices/transcript': transcript,
  'PUT /api/firmware/manifest': firmware,
};

/** POST /api/media with device credentials. */
export const DEVICE_MEDIA = media;
