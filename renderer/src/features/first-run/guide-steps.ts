/**
 * The first-run guide's steps, in order, each with what it does (shown above the step), and the
 * self-test's outcome as the guide words it. Every step can be skipped.
 */
import type { CheckOutcome, SelfTestResult } from '../../../../server/contract/index.ts';
import type { ApiResult } from '../../lib/api/api-result.ts';

export type StepId = 'name' | 'passkey' | 'phone' | 'model' | 'selftest' | 'platform';

export interface GuideStep {
  id: StepId;
  title: string;
  what: string;
}

export const GUIDE_STEPS: readonly GuideStep[] = [
  {
    id: 'name',
    title: 'Name the robot',
    what: 'The name shows in this dashboard, the browser tab and the tray, and other devices on the network see it.',
  },
  {
    id: 'passkey',
    title: 'Add a passkey on this browser',
    what: 'A passkey lets this browser sign in without the owner token, with this device’s screen lock.',
  },
  {
    id: 'phone',
    title: 'Open the dashboard on your phone',
    what: 'Scan the robot’s address, trust its certificate once, then pair the phone so it gets its own passkey.',
  },
  {
    id: 'model',
    title: 'Choose a model provider',
    what: 'The agent needs a language model to talk. You can pick one now or later in the Agent card.',
  },
  {
    id: 'selftest',
    title: 'Run the self-test',
    what: 'Checks the robot’s motors, camera, microphone and network, and says what to fix.',
  },
  {
    id: 'platform',
    title: 'Enrol on the platform (optional)',
    what: 'The hosted agent platform lets your other devices reach this robot. Everything else works without it.',
  },
];

/** "Part 2 of 6: Add a passkey on this browser". */
export function progressText(index: number): string {
  const step = GUIDE_STEPS[index];
  return `Part ${index + 1} of ${GUIDE_STEPS.length}: ${step?.title ?? ''}`;
}

/** One line of the step's result list, read from the contract's check (server/contract/selftest.ts). */
export interface SelftestCheck {
  name: string;
  status: CheckOutcome;
  detail: string;
}

export type SelftestOutcome =
  | { kind: 'unavailable' }
  | { kind: 'failed'; message: string }
  | { kind: 'done'; checks: SelftestCheck[] };

/**
 * What POST /api/console/selftest answered: its checks, or that the cockpit answering has no
 * self-test (404, or 405 where only the dashboard's GET fallback matches the path: an older one).
 */
export function selftestOutcome(result: ApiResult<SelfTestResult>): SelftestOutcome {
  if (!result.ok) return result.status === 404 || result.status === 405 ? { kind: 'unavailable' } : { kind: 'failed', message: result.message };
  const checks = result.data.checks.map((c) => ({ name: c.title, status: c.outcome, detail: [c.detail, c.advice].filter((v) => v !== '').join(' ') }));
  return { kind: 'done', checks };
}
