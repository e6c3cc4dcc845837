/**
 * The motion routes' shapes (server/motion/README-control.md): the recorded-move library of
 * GET /api/emotions, the body of POST /api/control/look, the clamp notes a move answers with,
 * the showcase reel's status and what the stop answers. Declared once for the cockpit and the
 * dashboard (docs/contract.md).
 */
import type { AppStopReport } from './apps.ts';

export interface MoveEntry {
  name: string;
  dataset: string;
  family: string;
  /** Lifecycle animations that park the head oddly; kept out of conversational use (docs/daemon.md, "Move libraries"). */
  lifecycle: boolean;
  /**
   * How long the move lasts in seconds, null until known: read from the daemon's move files when
   * it runs on the cockpit's computer, else learned from a first whole play (docs/daemon.md, "Move libraries").
   */
  seconds: number | null;
}

export interface MoveLibrary {
  moves: MoveEntry[];
  families: Record<string, string[]>;
  /** Datasets the daemon could not list (absent when every one listed): their moves are missing above. */
  missing?: { dataset: string; code: string; error: string }[];
}

/** Body of POST /api/control/look: every head field given forms an absolute pose (omitted = 0). */
export interface LookInput {
  /** Degrees. */
  yaw?: number;
  pitch?: number;
  roll?: number;
  /** Millimetres. */
  x?: number;
  y?: number;
  z?: number;
  /** [right, left] in degrees, the daemon's order (docs/daemon.md, "Conventions"). */
  antennas?: [number, number];
  body_yaw?: number;
  /** Seconds. */
  duration?: number;
}

/** A value the safe ranges changed: what was asked and what was applied. */
export interface ClampNote {
  requested: number;
  applied: number;
}

export interface ReelStatus {
  running: boolean;
  /** Label of the current (or last) step; null before the first run. */
  step: string | null;
  /** 0-based index into the script. */
  stepIndex: number | null;
  steps: number;
  startedAt: string | null;
  finishedAt: string | null;
  outcome: 'completed' | 'aborted' | 'failed' | null;
  /** Why it was aborted or how it failed. */
  reason?: string;
}

/** What POST /api/control/stop answers: the latch always holds. */
export interface StopResult {
  latched: true;
  movesStopped: number;
  reelAborted: boolean;
  /** ok false: the latch holds, but some daemon calls failed (the robot may still be moving). */
  daemon: { ok: boolean; error?: string };
  /** The robot's app: which one ran, and whether it is gone. */
  app: AppStopReport;
  /** What the stop ended, for people: "2 moves", "the reel", "app hello_wave"... */
  stopped: string[];
}
