/**
 * What the camera card displays, derived from the feed (camera.svelte.ts) and the socket: whether
 * a picture is fresh, stale or missing on the path in use, the status and notice that say so
 * (camera-status.ts), the face the tracker sees and where its box sits on the picture
 * (camera-geometry.ts), and the readout tiles (camera-format.ts).
 */
import { readTracking } from '../../lib/api/perception-api.ts';
import type { Connection } from '../connection/connection.svelte.ts';
import { cameraReadouts } from './camera-format.ts';
import { faceMarker, type Point } from './camera-geometry.ts';
import { describeCamera, pictureState, type PictureState } from './camera-status.ts';
import type { CameraFeed } from './camera.svelte.ts';

export class CameraDisplay {
  readonly #feed: CameraFeed;
  readonly #connection: Connection;

  /** The MJPEG <img> tells only whether it shows a picture: fresh while it does and the camera is live. */
  readonly pictures: PictureState = $derived.by(() =>
    this.#feed.path !== 'mjpeg'
      ? pictureState(this.#feed.shownAt, this.#connection.now)
      : this.#feed.streamShowing && this.#feed.health === 'live'
        ? 'fresh'
        : 'none',
  );
  readonly view = $derived.by(() =>
    describeCamera({
      socket: this.#connection.presence,
      health: this.#feed.health,
      absent: this.#feed.why.absent,
      trouble: this.#feed.why.trouble,
      configured: this.#feed.configured,
      picture: this.pictures,
      staleSeconds: this.#feed.shownAt === null ? 0 : (this.#connection.now - this.#feed.shownAt) / 1000,
    }),
  );
  readonly #tracking = $derived.by(() => readTracking(this.#connection.frame?.tracking));
  /** The face the tracker sees, in picture fractions; null without one. */
  readonly face: Point | null = $derived.by(() => {
    const tracking = this.#tracking;
    return tracking?.enabled && tracking.detected && tracking.x !== null && tracking.y !== null
      ? { x: tracking.x, y: tracking.y }
      : null;
  });
  /** The face's box on the picture; none while there is no picture to frame it on. */
  readonly marker = $derived.by(() => (this.face && this.pictures !== 'none' ? faceMarker(this.face) : null));
  readonly readouts = $derived.by(() =>
    cameraReadouts(
      {
        path: this.#feed.path,
        fresh: this.pictures === 'fresh',
        shown: this.#feed.shown,
        capturedAt: this.#feed.capturedAt,
        fps: this.#feed.fps,
        latencyMs: this.#feed.latencyMs,
        serverFps: this.#feed.serverFps,
        fallbackReason: this.#feed.fallbackReason,
      },
      this.#connection.now,
    ),
  );

  constructor(feed: CameraFeed, connection: Connection) {
    this.#feed = feed;
    this.#connection = connection;
  }
}
