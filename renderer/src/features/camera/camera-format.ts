/** Readouts of the camera view: ages, rates and delays in the units a person reads at a glance. */

const DASH = '—';

export function formatAge(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return DASH;
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  return `${Math.round(s / 60)} min`;
}

export function formatFps(fps: number | null): string {
  return fps === null || !Number.isFinite(fps) ? DASH : `${fps.toFixed(1)} fps`;
}

export function formatDelay(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return DASH;
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Signed degrees with a real minus sign: +12.5°, −3.0°. */
export function formatDegrees(value: number): string {
  const rounded = Math.round(value * 10) / 10 || 0;
  return `${rounded < 0 ? '\u2212' : '+'}${Math.abs(rounded).toFixed(1)}°`;
}

export interface ReadoutFacts {
  path: 'webrtc' | 'socket' | 'mjpeg';
  /** A picture was drawn lately. */
  fresh: boolean;
  shown: number;
  capturedAt: number | null;
  fps: number;
  latencyMs: number | null;
  /** Pictures per second at the cockpit (all the MJPEG path can tell). */
  serverFps: number;
  /** Why the view is not on WebRTC, when it tried and left it. */
  fallbackReason?: string | null;
}

const PATH_NAMES = { webrtc: 'WebRTC (relay)', socket: 'Socket JPEG', mjpeg: 'MJPEG' } as const;

/** Which path brings the pictures, and why not WebRTC when it was left. */
export function describePath(path: ReadoutFacts['path'], fallbackReason?: string | null): string {
  const name = PATH_NAMES[path];
  return path !== 'webrtc' && fallbackReason ? `${name} (WebRTC: ${fallbackReason})` : name;
}

/**
 * The camera's tiles: what the socket and WebRTC paths measure here (for WebRTC, "Cockpit →
 * screen" is the browser's own arrival-to-display delay), or the little the MJPEG path can tell;
 * and the path in use.
 */
export function cameraReadouts(f: ReadoutFacts, now: number): { label: string; value: string }[] {
  const path = { label: 'Video path', value: describePath(f.path, f.fallbackReason) };
  if (f.path === 'mjpeg') {
    return [
      { label: 'Pictures shown', value: DASH },
      { label: 'Frame age', value: DASH },
      { label: 'Frame rate', value: `${formatFps(f.serverFps)} at the cockpit` },
      { label: 'Cockpit → screen', value: DASH },
      path,
    ];
  }
  return [
    { label: 'Pictures shown', value: String(f.shown) },
    { label: 'Frame age', value: formatAge(f.capturedAt === null ? null : now - f.capturedAt) },
    { label: 'Frame rate', value: formatFps(f.fresh ? f.fps : 0) },
    { label: 'Cockpit → screen', value: formatDelay(f.latencyMs) },
    path,
  ];
}
