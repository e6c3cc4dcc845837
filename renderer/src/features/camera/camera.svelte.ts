/**
 * The live camera view's state. The preferred path is WebRTC: the robot's H.264 forwarded by
 * the cockpit's relay and decoded by the browser in a <video> (lib/api/relay-video.ts). When the
 * browser has no WebRTC, or the cockpit refuses it, or no picture comes, pictures come as binary
 * JPEG messages on the dashboard's one socket (no base64, decoded off the main thread by
 * createImageBitmap and drawn on a canvas; only the newest waiting picture is kept while one
 * decodes, so a slow screen skips pictures instead of falling behind). When the cockpit says the
 * camera is live but the socket brings nothing, the view falls back to the MJPEG stream in an <img>.
 */
import type { CameraHealth, ServerFrame } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';
import type { CameraApi } from '../../lib/api/camera-api.ts';
import { parseCameraPacket, type BrowserCameraPacket } from '../../lib/api/camera-packet.ts';
import { webrtcAvailable } from '../../lib/api/relay-video.ts';
import type { CameraStatus } from './camera-status.ts';
import { FrameStats } from './frame-stats.ts';

export type CameraPath = 'webrtc' | 'socket' | 'mjpeg';

/** The best path this browser can try: WebRTC where it exists. */
function bestPath(): CameraPath {
  return webrtcAvailable() ? 'webrtc' : 'socket';
}

const STATUSES: readonly string[] = ['live', 'starting', 'lost', 'off'];

function readHealth(u: unknown): CameraHealth | null {
  if (typeof u !== 'object' || u === null) return null;
  const { status, fps, absent, trouble } = u as Record<string, unknown>;
  if (typeof status !== 'string' || !STATUSES.includes(status)) return null;
  return {
    status: status as CameraStatus,
    fps: typeof fps === 'number' ? fps : 0,
    ...(typeof absent === 'string' ? { absent } : {}),
    ...(typeof trouble === 'string' ? { trouble } : {}),
  };
}

export class CameraFeed {
  path = $state<CameraPath>(bestPath());
  /** Why the view left the WebRTC path (said under the picture); null while on it or never tried. */
  fallbackReason = $state<string | null>(null);
  health = $state<CameraStatus | null>(null);
  /** Why the camera is not live, as the cockpit says (no camera at all, or its last failure); null when it says nothing. */
  why = $state<{ absent: string | null; trouble: string | null }>({ absent: null, trouble: null });
  /** Pictures per second at the cockpit's frame hub. */
  serverFps = $state(0);
  configured = $state(true);
  /** Pictures drawn since the view opened. */
  shown = $state(0);
  /** When the newest drawn picture reached the cockpit (the cockpit's clock). */
  capturedAt = $state<number | null>(null);
  /** When it was drawn here (this device's clock). */
  shownAt = $state<number | null>(null);
  latencyMs = $state<number | null>(null);
  fps = $state(0);
  width = $state(640);
  height = $state(360);
  /** When pictures were last asked for on the socket; null while not asking. */
  askedAt = $state<number | null>(null);
  /** The MJPEG <img> has shown a picture. */
  streamShowing = $state(false);
  /** The page is seen (pictures are not fetched for a hidden tab). */
  visible = $state(document.visibilityState === 'visible');
  readonly api: CameraApi;
  readonly #stats = new FrameStats();
  #canvas: HTMLCanvasElement | null = null;
  #pending: BrowserCameraPacket | null = null;
  #decoding = false;
  #latest: Blob | null = null;

  constructor(api: CameraApi) {
    this.api = api;
  }

  attach(canvas: HTMLCanvasElement | null): void {
    this.#canvas = canvas;
  }

  asking(at: number | null): void {
    this.askedAt = at;
  }

  hear(frame: ServerFrame): void {
    if (frame.type === 'health' || frame.type === 'camera') {
      const health = readHealth(frame.camera);
      if (health) {
        this.health = health.status;
        this.why = { absent: health.absent ?? null, trouble: health.trouble ?? null };
        this.serverFps = health.fps;
        this.configured = true;
      }
    } else if (frame.type === 'error' && frame.code === 'CAMERA_NO_FRAME') {
      this.configured = false;
    }
  }

  hearBinary(data: ArrayBuffer): void {
    if (this.path !== 'socket') return;
    const packet = parseCameraPacket(data);
    if (!packet) return;
    this.#pending = packet;
    if (!this.#decoding) void this.#drawWaiting();
  }

  /** A picture shown by the WebRTC <video>; times as the browser reports them (relay-video.ts). */
  videoShown(info: { captureTime: number | null; delayMs: number | null }): void {
    if (this.path !== 'webrtc') return;
    const now = Date.now();
    this.#stats.record(now, now);
    this.shown += 1;
    this.shownAt = now;
    this.capturedAt = info.captureTime === null ? null : performance.timeOrigin + info.captureTime;
    this.latencyMs = info.delayMs;
    this.fps = this.#stats.fps(now);
  }

  /** WebRTC was refused or failed: the socket's JPEG pictures instead, saying why. */
  webrtcFailed(reason: string): void {
    if (this.path !== 'webrtc') return;
    this.fallbackReason = reason;
    this.path = 'socket';
    this.askedAt = null;
    this.#stats.reset();
  }

  /** A fresh socket is a fresh chance for the best path. */
  useBest(): void {
    const best = bestPath();
    if (this.path === best) return;
    this.path = best;
    this.streamShowing = false;
    this.askedAt = null;
    this.#stats.reset();
  }

  useStream(): void {
    this.path = 'mjpeg';
    this.streamShowing = false;
    this.askedAt = null;
  }

  useSocket(): void {
    if (this.path === 'socket') return;
    this.path = 'socket';
    this.streamShowing = false;
    this.#stats.reset();
  }

  /** The newest picture: the bytes on screen when there are some, else the cockpit's snapshot. */
  async snapshot(): Promise<ApiResult<Blob>> {
    if (this.path === 'socket' && this.#latest) return { ok: true, status: 200, data: this.#latest };
    return this.api.snapshot();
  }

  async #drawWaiting(): Promise<void> {
    this.#decoding = true;
    while (this.#pending) {
      const packet = this.#pending;
      this.#pending = null;
      const blob = new Blob([packet.jpeg], { type: 'image/jpeg' });
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(blob);
      } catch {
        // A picture that does not decode is skipped; the next one replaces it.
        continue;
      }
      this.#paint(bitmap);
      bitmap.close();
      this.#latest = blob;
      this.#record(packet.capturedAt);
    }
    this.#decoding = false;
  }

  #paint(bitmap: ImageBitmap): void {
    if (bitmap.width !== this.width || bitmap.height !== this.height) {
      this.width = bitmap.width;
      this.height = bitmap.height;
    }
    const canvas = this.#canvas;
    if (!canvas) return;
    if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
    }
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  }

  #record(capturedAt: number): void {
    const now = Date.now();
    this.#stats.record(now, capturedAt);
    this.shown += 1;
    this.capturedAt = capturedAt;
    this.shownAt = now;
    this.latencyMs = this.#stats.latencyMs();
    this.fps = this.#stats.fps(now);
  }
}
