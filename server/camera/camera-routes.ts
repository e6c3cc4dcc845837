/**
 * Camera routes of the desktop server (docs/contract.md, "Routes"): the latest JPEG as a
 * snapshot (503 CAMERA_NO_FRAME while there is none) under two paths, and the MJPEG stream.
 * All three are `key` with `?token=` allowed, since they are used as <img src> URLs. Every
 * viewer is served from the one frame hub: no route ever opens its own camera client.
 */
import type { Context } from 'koa';
import { systemClock, type TimerClock } from '../clock.ts';
import type { FrameHub } from './frame-hub.ts';
import type { VideoRelay } from './relay/video-relay.ts';
import { serveMjpeg } from './mjpeg-stream.ts';
import { AppError } from '../errors.ts';
import type { RouteSpec } from '../http/route-table.ts';

/** An MJPEG viewer that takes no part for this long is ended (mjpeg-stream.ts). */
export const MJPEG_STALL_MS = 15_000;

export interface CameraRouteOptions {
  /** How long a snapshot waits for a picture when none is current (default 3000 ms; a cold start needs ~0.5 s). */
  snapshotWaitMs?: number;
  /** Times the MJPEG stall bound (server/clock.ts). */
  clock?: TimerClock;
  /** MJPEG streams open at once (default MJPEG_MAX_STREAMS); one more is refused with CAMERA_BUSY. */
  maxStreams?: number;
}

/**
 * Each MJPEG viewer is a socket written every picture. Without a bound any number of them could
 * be opened (loopback callers need no key when loopback reads are on); the WebRTC relay has its own.
 */
export const MJPEG_MAX_STREAMS = 32;

async function snapshot(hub: FrameHub, ctx: Context, waitMs: number): Promise<void> {
  const frame = await hub.snapshot(waitMs);
  if (!frame?.jpeg) {
    const { status } = hub.health();
    throw new AppError(
      'CAMERA_NO_FRAME',
      hub.configured ? `the camera has no frame (camera ${status})` : 'no camera is configured',
    );
  }
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Captured-At', String(frame.capturedAt));
  ctx.type = 'image/jpeg';
  ctx.body = frame.jpeg;
}

export function cameraRoutes(hub: FrameHub, options: CameraRouteOptions = {}): RouteSpec[] {
  const waitMs = options.snapshotWaitMs ?? 3000;
  const stall = { clock: options.clock ?? systemClock, ms: MJPEG_STALL_MS };
  const maxStreams = options.maxStreams ?? MJPEG_MAX_STREAMS;
  let streams = 0;
  return [
    {
      method: 'GET',
      path: '/api/snapshot.jpg',
      access: 'key',
      queryToken: true,
      summary: 'latest camera frame (image/jpeg, no-store); 503 CAMERA_NO_FRAME while there is none',
      handler: (ctx) => snapshot(hub, ctx, waitMs),
    },
    {
      method: 'GET',
      path: '/api/camera/snapshot',
      access: 'key',
      queryToken: true,
      summary: 'alias of /api/snapshot.jpg',
      handler: (ctx) => snapshot(hub, ctx, waitMs),
    },
    {
      method: 'GET',
      path: '/api/stream',
      access: 'key',
      queryToken: true,
      summary: 'MJPEG stream (multipart/x-mixed-replace); one upstream camera client shared by all viewers',
      async handler(ctx) {
        if (!hub.configured) throw new AppError('CAMERA_NO_FRAME', 'no camera is configured');
        if (streams >= maxStreams)
          throw new AppError(
            'CAMERA_BUSY',
            `the camera already serves ${streams} MJPEG viewers; close one, or use the dashboard's video`,
          );
        // The stream writes the socket itself, with backpressure; Koa must not answer for it.
        ctx.respond = false;
        streams += 1;
        try {
          await serveMjpeg(hub, ctx.res, stall);
        } finally {
          streams -= 1;
        }
      },
    },
  ];
}

/**
 * The camera's fan-out at a glance, for diagnostics and `npm run bench`: the hub (viewers by
 * kind, whether JPEG is decoded) and the WebRTC relay (viewers, packets, added latency).
 */
export function relayStatsRoute(hub: FrameHub, relay: VideoRelay): RouteSpec {
  return {
    method: 'GET',
    path: '/api/console/camera/relay',
    access: 'key',
    summary: 'camera fan-out: {hub: viewers, jpegWanted, …; relay: viewers, packets, latencyMs p50/p99, keyframe requests}',
    handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { camera: hub.health(), hub: hub.stats(), relay: relay.stats() };
    },
  };
}
