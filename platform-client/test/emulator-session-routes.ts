/**
 * Session routes of the emulator: the device registry, the owner's side of the relay, the
 * transcript listing and the firmware pointer (docs/platform.md, "Devices"). A missing session gives 401 {error: login required}.
 */
import { randomUUID } from 'node:crypto';
import {
  fail,
  ok,
  optionalString,
  sessionUser,
  workerDownReply,
  type EmuContext,
  type EmuHandler,
  type EmuRequest,
} from './emulator-context.ts';
import { validCapabilities } from './emulator-device-routes.ts';
import { getFirmware, setFirmware } from './emulator-firmware.ts';
import { findReply, normalisePayload, send } from './emulator-relay.ts';
import { hashToken, listEntry, mintToken } from './emulator-state.ts';

export function session(
  handler: (req: EmuRequest, ctx: EmuContext, userId: string) => ReturnType<EmuHandler>,
): EmuHandler {
  return (req, ctx) => {
    const userId = sessionUser(req, ctx);
    if (!userId) return fail(401, 'login required');
    // The web routes proxy to the worker; a dead worker becomes 424 or, hung, 503 (docs/platform.md, "Devices").
    return workerDownReply(ctx) ?? handler(req, ctx, userId);
  };
}

export function ownedDevice(ctx: EmuContext, userId: string, deviceId: unknown) {
  const device = typeof deviceId === 'string' ? ctx.state.devices.get(deviceId) : undefined;
  return device && device.userId === userId && !device.revoked ? device : null;
}

/** Endpoint URLs must be https on a public host name, reduced to the origin (docs/platform.md, "Devices"). */
function endpointOrigin(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  try {
    const url = new URL(raw);
    const host = url.hostname;
    const refused =
      /^[\d.]+$/.test(host) ||
      host.includes(':') ||
      host === 'localhost' ||
      !host.includes('.') ||
      /\.(local|internal)$/.test(host);
    return url.protocol === 'https:' && !refused ? url.origin : null;
  } catch {
    return null;
  }
}

const enrol = session((req, ctx, userId) => {
  const { name, platform, kind = 'daemon', capabilities, url, secret } = req.body;
  if (typeof name !== 'string' || name.length === 0 || name.length > 64)
    return fail(400, 'name required, at most 64 characters');
  if (optionalString(platform, 32) === null) return fail(400, 'platform at most 32 characters');
  if (typeof kind !== 'string' || !['daemon', 'browser', 'cli', 'endpoint'].includes(kind))
    return fail(400, 'kind must be daemon, browser, cli or endpoint');
  if (capabilities !== undefined && !validCapabilities(capabilities))
    return fail(400, 'capabilities must be at most 32 strings of at most 32 characters');
  const owned = [...ctx.state.devices.values()].filter((d) => d.userId === userId && !d.revoked);
  if (owned.length >= 20) return fail(400, 'device limit reached');
  const origin = kind === 'endpoint' ? endpointOrigin(url) : null;
  if (kind === 'endpoint' && (origin === null || typeof secret !== 'string' || secret.length > 4096))
    return fail(400, 'endpoint devices need an https public url and a secret');
  const id = randomUUID();
  const token = kind === 'endpoint' ? null : mintToken();
  ctx.state.devices.set(id, {
    id,
    userId,
    name,
    kind,
    platform: (platform as string | undefined) ?? null,
    capabilities: (capabilities as string[] | undefined) ?? [],
    tokenHash: token === null ? null : hashToken(token),
    lanUrl: null,
    url: origin,
    lastSeen: null,
    revoked: false,
  });
  // The plaintext token appears once, here; only its hash is kept (docs/platform.md, "Devices").
  return ok({ device_id: id, device_token: token });
});

const list = session((_req, ctx, userId) => {
  const mine = [...ctx.state.devices.values()].filter((d) => d.userId === userId && !d.revoked);
  return ok({ devices: mine.map((d) => listEntry(ctx.state, d)) });
});

const revoke = session((req, ctx, userId) => {
  const device = ownedDevice(ctx, userId, req.body.deviceId);
  if (!device) return fail(404, 'device not found');
  device.revoked = true;
  return ok();
});

const adopt = session((req, ctx, userId) => {
  const device = ownedDevice(ctx, userId, req.body.deviceId);
  if (!device) return fail(404, 'device not found');
  if (device.kind === 'endpoint') return fail(400, 'endpoint devices have no token');
  const token = mintToken();
  device.tokenHash = hashToken(token);
  return ok({ device_id: device.id, device_token: token });
});

const relaySend = session((req, ctx, userId) => {
  if (typeof req.body.toDevice !== 'string' || req.body.toDevice.length === 0)
    return fail(400, 'userId and toDevice required');
  const payload = normalisePayload(req.body.payload);
  if (payload === null) return fail(400, 'payload must be valid JSON ≤8KB');
  // Send does not check presence: the mailbox waits for the device (docs/platform.md, "Devices").
  if (!ownedDevice(ctx, userId, req.body.toDevice)) return fail(404, 'device not found');
  return ok({ id: send(ctx.state, ctx.relay, userId, req.body.toDevice, payload).id });
});

const relayRecv = session((req, ctx, userId) => {
  const inReplyTo = req.query.get('inReplyTo');
  if (!inReplyTo) return fail(400, 'inReplyTo required');
  const row = findReply(ctx.state, ctx.relay, userId, inReplyTo);
  return ok({
    reply: row ? { id: row.id, payload: row.payload, created_at: new Date(row.created_at).toISOString() } : null,
  });
});

/**
 * GET /api/devices/transcript?id=&limit=: the contract says "a device's transcripts"; the platform
 * itself reads `id` as one transcript's id ({transcript}) and lists the owner's newest without it.
 * Both readings are served: a transcript id answers that one, a device id lists that device's.
 */
const transcripts = session((req, ctx, userId) => {
  const id = req.query.get('id');
  const limit = Math.min(50, Math.max(1, Number(req.query.get('limit') ?? 20) || 20));
  const owned = ctx.transcripts.filter((t) => ctx.state.devices.get(t.deviceId)?.userId === userId);
  const one = id ? owned.find((t) => t.id === id) : undefined;
  if (one) return ok({ transcript: one });
  const rows = owned.filter((t) => !id || t.deviceId === id);
  return ok({ transcripts: rows.slice(-limit).reverse() });
});

/** Session routes by "METHOD path". */
export const SESSION_ROUTES: Readonly<Record<string, EmuHandler>> = {
  'POST /api/devices': enrol,
  'GET /api/devices': list,
  'DELETE /api/devices': revoke,
  'POST /api/devices/adopt': adopt,
  'POST /api/devices/relay': relaySend,
  'GET /api/devices/relay': relayRecv,
  'GET /api/devices/transcript': transcripts,
  'POST /api/firmware/manifest': session(setFirmware),
  'GET /api/firmware/manifest': session(getFirmware),
};
