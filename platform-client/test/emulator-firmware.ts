/**
 * The firmware pointer of the emulator (docs/platform.md, "Devices"): per channel a pointer
 * {version, url, sha256, force?} to a manifest JSON the device fetches and checks itself.
 * A downgrade gives 409 unless forced; versions compare by their runs of integers.
 */
import { fail, ok, type EmuContext, type EmuReply, type EmuRequest } from './emulator-context.ts';

const CHANNEL = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const HOSTS = ['plugin.tiny.technology', 'tiny.technology'];

/** Compares two versions by their runs of integers: negative, zero or positive. */
export function compareRuns(a: string, b: string): number {
  const ra = (a.match(/\d+/g) ?? []).map(Number);
  const rb = (b.match(/\d+/g) ?? []).map(Number);
  for (let i = 0; i < Math.max(ra.length, rb.length); i += 1) {
    const d = (ra[i] ?? 0) - (rb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The platform hosts bundles only on its own hosts. The emulator also accepts its own origin,
 * which stands in for those hosts in tests.
 */
function allowedUrl(raw: unknown, origin: string): boolean {
  if (typeof raw !== 'string' || raw.length > 512) return false;
  try {
    const url = new URL(raw);
    return (url.protocol === 'https:' && HOSTS.includes(url.hostname)) || url.origin === origin;
  } catch {
    return false;
  }
}

/** POST /api/firmware/manifest (session): store a pointer. */
export function setFirmware(req: EmuRequest, ctx: EmuContext): EmuReply {
  const { channel, version, url, sha256, force } = req.body;
  if (typeof channel !== 'string' || !CHANNEL.test(channel)) return fail(400, 'invalid channel');
  if (typeof version !== 'string' || version.length === 0 || version.length > 128) return fail(400, 'invalid version');
  if (!allowedUrl(url, ctx.origin())) return fail(400, 'invalid url');
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(sha256)) return fail(400, 'invalid sha256');
  const current = ctx.firmware.get(channel);
  const forced = force === true || force === '1';
  if (current && compareRuns(version, current.version) < 0 && !forced) return fail(409, 'downgrade refused');
  ctx.firmware.set(channel, {
    version,
    url: url as string,
    sha256: sha256.toLowerCase(),
    updated_at: new Date(ctx.state.now()).toISOString(),
    ...(forced ? { force: '1' as const } : {}),
  });
  return ok();
}

/** GET /api/firmware/manifest?channel= (session). */
export function getFirmware(req: EmuRequest, ctx: EmuContext): EmuReply {
  const channel = req.query.get('channel') ?? '';
  return ok({ bundle: ctx.firmware.get(channel) ?? null });
}
