/**
 * Runs the self-test's checks side by side, each under its own time limit: a check that hangs or
 * throws becomes a `fail` of its own and never holds up or breaks the others.
 */
import type { CheckOutcome, SelfTestCheck, SelfTestResult } from '../contract/selftest.ts';
import { messageOf } from '../errors.ts';

/** What a check finds; the runner adds the id, title and duration. */
export interface Finding {
  outcome: CheckOutcome;
  detail: string;
  advice?: string;
  values?: Record<string, unknown>;
}

export interface Check {
  id: string;
  title: string;
  timeoutMs: number;
  /** `signal` aborts when the check has run out of time: a check that acts stops acting then. */
  run(signal: AbortSignal): Promise<Finding>;
}

const RANK: Record<CheckOutcome, number> = { ok: 0, skipped: 0, warn: 1, fail: 2 };

export async function runCheck(check: Check, now: () => number): Promise<SelfTestCheck> {
  const started = now();
  const gaveUp = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Finding>((resolve) => {
    timer = setTimeout(() => {
      // The result is out: a check that goes on must not move the robot after it.
      gaveUp.abort(new Error(`the check ran out of its ${check.timeoutMs / 1000} s`));
      resolve({
        outcome: 'fail',
        detail: `No answer within ${check.timeoutMs / 1000} s.`,
        advice: 'Check that the robot is on and reachable, then run the check again.',
      });
    }, check.timeoutMs);
  });
  const finding = await Promise.race([
    check.run(gaveUp.signal).catch((error: unknown): Finding => ({
      outcome: 'fail',
      detail: `The check failed: ${messageOf(error)}`,
      advice: 'Check that the robot daemon is running and reachable, then run the check again.',
    })),
    late,
  ]).finally(() => clearTimeout(timer));
  return {
    id: check.id,
    title: check.title,
    outcome: finding.outcome,
    detail: finding.detail,
    advice: finding.advice ?? '',
    ...(finding.values ? { values: finding.values } : {}),
    durationMs: Math.max(0, Math.round(now() - started)),
  };
}

export async function runChecks(checks: Check[], now: () => number = Date.now): Promise<SelfTestResult> {
  const startedAt = new Date(now()).toISOString();
  const results = await Promise.all(checks.map((check) => runCheck(check, now)));
  const worst = results.reduce((w, c) => (RANK[c.outcome] > RANK[w] ? c.outcome : w), 'ok' as CheckOutcome);
  return {
    startedAt,
    finishedAt: new Date(now()).toISOString(),
    outcome: worst === 'skipped' ? 'ok' : (worst as SelfTestResult['outcome']),
    checks: results,
  };
}
