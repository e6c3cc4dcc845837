/**
 * The camera's HTTP side (server/camera/README-camera.md, "Viewers"): the snapshot as a JPEG
 * blob, and the MJPEG stream's address for an <img>. Both routes take `?token=` because an
 * <img> cannot send a bearer; a passkey session needs nothing, its cookie rides along.
 */
import { failureFromBody, networkFailure, type ApiResult } from './api-result.ts';

export interface CameraApiOptions {
  getToken: () => string | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface CameraApi {
  /** The newest picture (503 CAMERA_NO_FRAME while there is none). */
  snapshot(): Promise<ApiResult<Blob>>;
  /** Address of the MJPEG stream for an <img src>. */
  streamUrl(): string;
}

export function withToken(path: string, token: string | null): string {
  return token === null ? path : `${path}?token=${encodeURIComponent(token)}`;
}

export function createCameraApi(options: CameraApiOptions): CameraApi {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 8000;
  return {
    async snapshot() {
      const token = options.getToken();
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      try {
        const response = await doFetch('/api/snapshot.jpg', {
          headers: token ? { authorization: `Bearer ${token}` } : {},
          credentials: 'same-origin',
          cache: 'no-store',
          signal: controller.signal,
        });
        if (!response.ok) return failureFromBody(response.status, await response.json().catch(() => null));
        return { ok: true, status: response.status, data: await response.blob() };
      } catch {
        return networkFailure(timedOut);
      } finally {
        clearTimeout(timer);
      }
    },
    streamUrl: () => withToken('/api/stream', options.getToken()),
  };
}
