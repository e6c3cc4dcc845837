/**
 * What the replay shows at the cursor, as pure functions of the replay summary: the pose, the
 * health and the frame last recorded at or before the cursor, and the log lines up to it.
 */
import type { ReplayHealth, ReplayLine, ReplayPose } from '../../../../server/contract/recordings.ts';

/** Index of the last item whose `t` is at or before `t`, or -1 (items sorted by time). */
export function lastAtOrBefore(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function at<T extends { t: number }>(items: readonly T[], t: number): T | null {
  const i = lastAtOrBefore(
    items.map((x) => x.t),
    t,
  );
  return items[i] ?? null;
}

/** The pose at the cursor; before the first sample, the first one. */
export function poseAt(poses: readonly ReplayPose[], t: number): ReplayPose | null {
  return at(poses, t) ?? poses[0] ?? null;
}

export function healthAt(health: readonly ReplayHealth[], t: number): ReplayHealth | null {
  return at(health, t);
}

/** The recorded frame to show: the last one at or before the cursor, else the first. */
export function frameAt(frames: readonly number[], t: number): number | null {
  const i = lastAtOrBefore(frames, t);
  return frames[i] ?? frames[0] ?? null;
}

/** The last `n` lines at or before the cursor, newest last. */
export function linesUpTo(lines: readonly ReplayLine[], t: number, n = 8): ReplayLine[] {
  const i = lastAtOrBefore(
    lines.map((l) => l.t),
    t,
  );
  return lines.slice(Math.max(0, i + 1 - n), i + 1);
}

/** Where playback is after `elapsedMs` of wall time at `speed`; it stops at the end. */
export function advance(cursor: number, elapsedMs: number, speed: number, duration: number): number {
  return Math.min(duration, Math.max(0, cursor + elapsedMs * speed));
}

/** `1:05.3`: minutes, seconds and tenths from the start of the recording. */
export function formatOffset(ms: number): string {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${minutes}:${String(seconds).padStart(2, '0')}.${tenths % 10}`;
}

/** A marker's place along the timeline, in percent. */
export function percentOf(t: number, duration: number): number {
  return duration > 0 ? Math.min(100, Math.max(0, (t / duration) * 100)) : 0;
}
