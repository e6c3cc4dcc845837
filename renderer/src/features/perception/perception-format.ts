/**
 * Pure helpers of the perception card: hold countdowns between status updates, the compass
 * geometry (seen from above, front up, positive bearings to the robot's left) and the lines
 * that say what tracking and turn-toward-speaker are doing.
 */
import type { DoaStatus, LiveHold, TrackingStatus } from '../../lib/api/perception-api.ts';

export interface HoldLeft {
  name: string;
  /** Seconds left now. */
  seconds: number;
}

/** The holds still standing `elapsedMs` after the status that listed them. */
export function holdsLeft(holds: readonly LiveHold[], elapsedMs: number): HoldLeft[] {
  const elapsed = Math.max(0, elapsedMs) / 1000;
  return holds
    .map((h) => ({ name: h.name, seconds: h.remaining - elapsed }))
    .filter((h) => h.seconds > 0)
    .sort((a, b) => a.seconds - b.seconds);
}

export function formatSeconds(seconds: number): string {
  return seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.ceil(seconds)} s`;
}

export interface XY {
  x: number;
  y: number;
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The point at `bearing` on a circle of radius r around c: 0° up, +90° (left) to the left. */
export function bearingPoint(bearing: number, r: number, c: XY): XY {
  return { x: c.x - r * Math.sin(rad(bearing)), y: c.y - r * Math.cos(rad(bearing)) };
}

/** The bearing of a point seen from c, −180..180, rounded to the degree. */
export function pointBearing(p: XY, c: XY): number {
  const bearing = Math.round((Math.atan2(-(p.x - c.x), -(p.y - c.y)) * 180) / Math.PI);
  return bearing === -180 ? 180 : bearing || 0;
}

/** Where a bearing points, in words: "31° left", "straight ahead". */
export function bearingWords(bearing: number | null): string {
  if (bearing === null) return 'no reading yet';
  const b = Math.round(bearing);
  if (b === 0) return 'straight ahead';
  if (Math.abs(b) === 180) return 'behind';
  return `${Math.abs(b)}° ${b > 0 ? 'left' : 'right'}`;
}

export function trackingLine(t: TrackingStatus | null): string {
  if (!t) return 'Waiting for the tracker…';
  if (t.error) return `Tracker problem: ${t.error}`;
  if (!t.enabled) return 'Off';
  if (t.paused) return `Paused by ${t.holds.map((h) => h.name).join(', ') || 'a hold'}`;
  return t.detected ? 'Face locked' : 'Looking for a face';
}

/** Why the robot is (not) turning toward the speaker now. */
export function doaLine(d: DoaStatus | null): string {
  if (!d) return 'Waiting for the listener…';
  if (d.error) return `Problem: ${d.error}`;
  if (!d.enabled) return 'Off';
  return d.why === null ? 'Just turned toward the speaker' : `Not turning: ${d.why}`;
}
