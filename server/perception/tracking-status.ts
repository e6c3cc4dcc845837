/**
 * What face tracking shows: the status of GET /api/tracking and the `{type: "tracking"}` frame,
 * its de-duplication key, its line in the services map, and the view the DoA turner reads.
 */
import type { HoldResult, TrackingStatus } from '../contract/perception.ts';
import type { ServiceState } from '../contract/state.ts';

export type { HoldResult, TrackingStatus };
import type { FaceTarget } from '../daemon/wire.ts';
import type { Holds, StopHold } from '../holds.ts';
import { keyRound } from './dedupe.ts';

/** What the turn-toward-speaker controller reads from face tracking. */
export interface TrackerView {
  enabled(): boolean;
  face(): FaceTarget;
  /** Epoch ms of the last poll that saw a face; null when none yet. */
  faceSeenAt(): number | null;
  liveHolds(): string[];
  /** A `speaking` hold stands, or ended less than `tailMs` ago, face or no face. */
  isSpeaking(tailMs: number): boolean;
}

export interface TrackingController extends Holds, StopHold, TrackerView {
  /** Adopts a running tracker, else enables it when autostart is set, then polls the face. */
  start(): Promise<void>;
  /** Stops polling and switches the daemon tracker off (best effort). */
  stop(): Promise<void>;
  setEnabled(on: boolean): Promise<TrackingStatus>;
  hold(name: string, on: boolean, ttlSeconds?: number): Promise<HoldResult>;
  /** One face poll; a poll already in flight is joined, never doubled. */
  poll(): Promise<void>;
  status(): TrackingStatus;
  /** False once the daemon answered an enable with `unavailable` (no camera); null before asking. */
  available(): boolean | null;
}

/**
 * The tracker's name from what the daemon reports. Its API names no detector, so this is the
 * daemon's own identity (`reachy-mini <version>`) and whether its enable answered `ok` or
 * `unavailable`; the built-in simulator's tracker is its scene geometry.
 */
export function trackingEngine(simulated: boolean, version: string | null = null, available: boolean | null = null): string {
  if (simulated) return 'sim:geometry';
  const daemon = version ? `reachy-mini ${version}` : 'reachy-mini';
  return available === false ? `${daemon}: unavailable` : daemon;
}

export function serviceOf(s: TrackingStatus): ServiceState {
  // The daemon's tracker is not on and the last switch failed (no camera, daemon down): not
  // running, and not `off` either, which is what the operator chose.
  if (s.error && s.weight === null) return { state: 'stopped', detail: s.error };
  if (!s.enabled) return { state: 'off', detail: 'face tracking off' };
  if (s.paused) return { state: 'paused', detail: `paused by ${s.holds.map((h) => h.name).join(', ')}` };
  return { state: 'running', detail: s.detected ? 'face locked' : 'looking for a face' };
}

/** De-duplicated on (enabled, paused, detected, rounded x, rounded y) (docs/contract.md, "How the desktop server behaves"). */
export function trackingKey(s: TrackingStatus): string {
  return JSON.stringify([s.enabled, s.paused, s.detected, keyRound(s.x, 2), keyRound(s.y, 2)]);
}
