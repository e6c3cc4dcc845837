/** The result of `POST /api/console/selftest` ("Check the robot"), drawn by the dashboard and kept in the diagnostics bundle. */

export type CheckOutcome = 'ok' | 'warn' | 'fail' | 'skipped';

export interface SelfTestCheck {
  /** Stable id, e.g. `microphone`. */
  id: string;
  /** What was checked, for people: "Microphone level". */
  title: string;
  outcome: CheckOutcome;
  /** What was found, in one or two sentences. */
  detail: string;
  /** What to do about a warn or fail; empty when ok. */
  advice: string;
  /** Measurements behind the outcome (fps, peak level, free bytes...). */
  values?: Record<string, unknown>;
  durationMs: number;
}

export interface SelfTestResult {
  startedAt: string;
  finishedAt: string;
  /** The worst outcome of the checks (skipped counts as ok). */
  outcome: 'ok' | 'warn' | 'fail';
  checks: SelfTestCheck[];
}

export interface SelfTestRequest {
  /** The operator confirmed the small test move of the joints. */
  confirmMove?: boolean;
}
