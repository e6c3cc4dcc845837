/**
 * Face tracking and turning toward a speaker (server/perception/README-perception.md, docs/contract.md
 * "Face tracking and holds" and "DoA turn-toward-speaker"): what GET /api/tracking and GET /api/doa
 * answer, the `tracking` and `doa` frames carry, and a hold answers. Declared once for the cockpit
 * and the dashboard.
 */

/** A named hold pausing tracking. */
export interface LiveHold {
  name: string;
  /** Seconds left, one decimal. */
  remaining: number;
}

export interface TrackingStatus {
  enabled: boolean;
  detected: boolean;
  /** Face position in the head camera image, −1..1 (x right, y down); null without a face. */
  x: number | null;
  y: number | null;
  holds: LiveHold[];
  /** Enabled, and a hold (or the latched stop) has the weight at 0. */
  paused: boolean;
  /**
   * Which face tracker does the work, as the daemon reports it: the daemon and its version, or
   * `unavailable` when the daemon answered the enable with `status: "unavailable"` (no camera);
   * `sim:geometry` for the built-in simulator.
   */
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

/** What POST /api/tracking/hold answers: the hold applied (and the TTL asked, when it was clamped). */
export interface HoldAnswer {
  hold: HoldResult & { requested?: number };
  tracking: TrackingStatus;
}

/** A turn toward a speaker, in degrees. */
export interface TurnPlan {
  headYaw: number;
  /** Null when the head alone reaches the target. */
  bodyYaw: number | null;
  pitch: number;
}

export interface DoaStatus {
  enabled: boolean;
  /** Last bearing heard, degrees from straight ahead, + to the robot's left; null before any. */
  bearing: number | null;
  speech: boolean;
  /** Why it is not turning now; null right after a turn. */
  why: string | null;
  turns: number;
  windupRefusals: number;
  /** Agreement of the DoA side with the tracked face's side (the empirical sign check). */
  sign: { agree: number; disagree: number };
  lastTurn: { at: string; bearing: number; plan: TurnPlan } | null;
  error: string | null;
}
