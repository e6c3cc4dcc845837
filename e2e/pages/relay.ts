/**
 * Helpers for the camera's WebRTC path in browser tests: the cockpit's fan-out counters, a
 * fingerprint of the picture a <video> shows, and a page without WebRTC.
 */
import type { Page } from '@playwright/test';
import { api } from './cockpit-api.ts';

export interface Fanout {
  hub: { viewers: { jpeg: number; h264: number }; videoWatchers: number; jpegWanted: boolean };
  relay: { viewers: number; connected: number; upstreamWatches: number; packetsOut: number };
}

/** GET /api/console/camera/relay: the hub's and the relay's counters. */
export async function fanout(base: string, token: string): Promise<Fanout> {
  const { status, body } = await api(base, '/api/console/camera/relay', { token });
  if (status !== 200) throw new Error(`GET /api/console/camera/relay answered ${status}`);
  return body as unknown as Fanout;
}

/** Camera sessions the simulated robot runs for the cockpit now. */
export async function upstreamSessions(simUrl: string): Promise<number> {
  const status = (await (await fetch(`${simUrl}/sim/status`)).json()) as { counters: { cameraSessions: number } };
  return status.counters.cameraSessions;
}

/** The few DOM members the fingerprint uses (e2e code is typed without the DOM library). */
interface PageVideo {
  videoWidth: number;
  videoHeight: number;
}
interface PageCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): {
    drawImage(source: PageVideo, x: number, y: number, w: number, h: number): void;
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  } | null;
}

/** A digest of the camera <video>'s current picture (sampled pixels), or null before it has one. */
export function videoFingerprint(page: Page): Promise<string | null> {
  return page
    .getByRole('button', { name: /^Camera picture/ })
    .locator('video')
    .evaluate((el) => {
      const video = el as unknown as PageVideo;
      if (video.videoWidth === 0) return null;
      const doc = (globalThis as unknown as { document: { createElement(tag: 'canvas'): PageCanvas } }).document;
      const canvas = doc.createElement('canvas');
      canvas.width = 160;
      canvas.height = 90;
      const context = canvas.getContext('2d');
      if (!context) return null;
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      let hash = 0;
      for (let i = 0; i < pixels.length; i += 4) hash = (hash * 31 + (pixels[i] ?? 0) + (pixels[i + 1] ?? 0)) >>> 0;
      return `${video.videoWidth}x${video.videoHeight}:${hash}`;
    });
}

/** The page runs as in a browser without WebRTC (some embedded webviews): the camera uses the socket. */
export async function withoutWebrtc(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Reflect.deleteProperty(globalThis, 'RTCPeerConnection');
  });
}
