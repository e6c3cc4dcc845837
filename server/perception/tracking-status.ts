/**
 * What face tracking shows: the status of GET /api/tracking and the `{type: "tracking"}` frame,
 * its de-duplication key, its line in the services map, and the view the DoA turner reads.
 */
import type { ServiceState } from '../contract/state.ts';
import type { FaceTarget } from '../daemon/wire.ts';
import type { Holds } from '../motion/receipts.ts';
import { keyRound } from './dedupe.ts';
import type { LiveHold } from './holds.ts';

export interface TrackingStatus {
  enabled: boolean;
  detected: boolean;
  /** Face position in the head camera image, −1..1 (x right, y down); null without a face. */
  x: number | null;
  y: number | null;
  holds: LiveHold[];
  /** Enabled, and a hold has the weight at 0. */
  paused: boolean;
  /** Which face detector does the work: the daemon's YuNet, or the simulator's geometry. */
  engine: string;
  /** The weight the daemon last accepted; null when off or unknown. */
  weight: number | null;
  error: string | null;
  /** Times tracking was switched back on after a daemon restart. */
  reenabled: number;
}

export interface HoldResult {
  name: string;
  on: boolean;
  /** The TTL applied after clamping (seconds); absent on release. */
  ttl?: number;
  /** False for a `speaking` hold taken while no face is detected (recorded, not pausing). */
  active: boolean;
}

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

export interface TrackingController extends Holds, TrackerView {
  /** Adopts a running tracker, else enables it when autostart is set, then polls the face. */
  start(): Promise<void>;
  /** Stops polling and switches the daemon tracker off (best effort). */
  stop(): Promise<void>;
  setEnabled(on: boolean): Promise<TrackingStatus>;
  hold(name: string, on: boolean, ttlSeconds?: number): Promise<HoldResult>;
  /** One face poll; a poll already in flight is joined, never doubled. */
  poll(): Promise<void>;
  status(): TrackingStatus;
}

/** The detector's name as honestly as we know it: the daemon does not report one. */
export function trackingEngine(simulated: boolean): string {
  return simulated ? 'sim:geometry' : 'daemon:yunet';
}

export function serviceOf(s: TrackingStatus): ServiceState {
  if (!s.enabled) return { state: 'off', detail: 'face tracking off' };
  if (s.paused) return { state: 'paused', detail: `paused by ${s.holds.map((h) => h.name).join(', ')}` };
  return { state: 'running', detail: s.detected ? 'face locked' : 'looking for a face' };
}

/** De-duplicated on (enabled, paused, detected, rounded x, rounded y) (reference-notes.md §4). */
export function trackingKey(s: TrackingStatus): string {
  return JSON.stringify([s.enabled, s.paused, s.detected, keyRound(s.x, 2), keyRound(s.y, 2)]);
}
