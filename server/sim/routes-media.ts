/** /api/media: devices, playback, wobbling and face tracking (docs/daemon.md, "Media"). */
import type { SimContext } from './context.ts';
import { floatInRange, isObject, str, type Errors } from './fields.ts';
import { jsonBody, route, type Route } from './http-kit.ts';
import { parseRequired } from './models.ts';
import { modelAttributesType, ValidationError } from './pydantic.ts';

const OK = { json: { status: 'ok' } };

/** `EnableTrackingRequest | None`: no body means weight 1. */
function trackingWeight(body: unknown): number {
  if (body === undefined || body === null) return 1;
  if (!isObject(body)) throw new ValidationError([modelAttributesType(['body'], body)]);
  if (body.weight === undefined) return 1;
  const errors: Errors = [];
  const weight = floatInRange(body.weight, ['body', 'weight'], errors, { ge: 0, le: 1 });
  if (weight === undefined) throw new ValidationError(errors);
  return weight;
}

export function mediaRoutes(ctx: SimContext): Route[] {
  const backend = { backend: true };
  // Without a real media pipeline the flag is only stored; goto_sleep clears it like the daemon.
  const setWobbling = (on: boolean): typeof OK => {
    ctx.sounds.wobbling = on;
    return OK;
  };
  return [
    route('GET', '/api/media/status', () => ({
      json: { available: !ctx.media.released, released: ctx.media.released, no_media: false },
    })),
    route('POST', '/api/media/release', () => {
      ctx.counters.mediaReleases += 1;
      ctx.media.released = true;
      // Release stops the whole GStreamer pipeline, WebRTC camera included (docs/daemon.md, "Media").
      ctx.camera.sync();
      return OK;
    }),
    route('POST', '/api/media/acquire', () => {
      ctx.counters.mediaAcquires += 1;
      ctx.media.released = false;
      ctx.camera.sync();
      return OK;
    }),
    route(
      'POST',
      '/api/media/play_sound',
      (req) => {
        ctx.playSound(parseRequired(jsonBody(req), 'file', str));
        return OK;
      },
      backend,
    ),
    route(
      'POST',
      '/api/media/stop_sound',
      () => {
        ctx.counters.soundStops += 1;
        ctx.sounds.stop(ctx.wallMs());
        return OK;
      },
      backend,
    ),
    route('POST', '/api/media/clear_incoming_audio', () => OK, backend),
    route('POST', '/api/media/wobbling/enable', () => setWobbling(true), backend),
    route('POST', '/api/media/wobbling/disable', () => setWobbling(false), backend),
    ...trackingRoutes(ctx),
  ];
}

function trackingRoutes(ctx: SimContext): Route[] {
  const backend = { backend: true };
  const tracking = ctx.world.tracking;
  return [
    route(
      'POST',
      '/api/media/tracking/enable',
      (req) => {
        tracking.enable(trackingWeight(jsonBody(req)));
        return { json: { status: 'ok', enabled: true } };
      },
      backend,
    ),
    route(
      'POST',
      '/api/media/tracking/disable',
      () => {
        tracking.disable();
        return { json: { status: 'ok', enabled: false } };
      },
      backend,
    ),
    route(
      'GET',
      '/api/media/tracking/face',
      () => ({ json: { status: 'ok', face_target: tracking.report() } }),
      backend,
    ),
  ];
}
