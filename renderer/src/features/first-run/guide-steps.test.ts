import { describe, expect, it } from 'vitest';
import type { CheckOutcome, SelfTestResult } from '../../../../server/contract/index.ts';
import { GUIDE_STEPS, progressText, selftestOutcome } from './guide-steps.ts';

describe('first-run guide steps', () => {
  it('has the six steps in order, each saying what it does', () => {
    expect(GUIDE_STEPS.map((s) => s.id)).toEqual(['name', 'passkey', 'phone', 'model', 'selftest', 'platform']);
    for (const step of GUIDE_STEPS) expect(step.what.length).toBeGreaterThan(20);
    expect(progressText(1)).toBe('Part 2 of 6: Add a passkey on this browser');
  });

  it('says the self-test is unavailable on a 404, and reads its checks otherwise', () => {
    expect(selftestOutcome({ ok: false, status: 404, code: 'NOT_FOUND', message: 'no such route' })).toEqual({ kind: 'unavailable' });
    expect(selftestOutcome({ ok: false, status: 405, code: 'HTTP_405', message: 'Method Not Allowed' })).toEqual({ kind: 'unavailable' });
    expect(selftestOutcome({ ok: false, status: 0, code: 'NETWORK', message: 'down' })).toEqual({ kind: 'failed', message: 'down' });
    const check = (id: string, outcome: CheckOutcome, detail: string, advice = '') => ({ id, title: `${id} check`, outcome, detail, advice, durationMs: 5 });
    const data: SelfTestResult = {
      startedAt: '2026-11-25T12:00:00Z',
      finishedAt: '2026-11-25T12:00:03Z',
      outcome: 'warn',
      checks: [check('camera', 'ok', 'live'), check('motors', 'warn', 'hot', 'let it rest')],
    };
    expect(selftestOutcome({ ok: true, status: 200, data })).toEqual({
      kind: 'done',
      checks: [
        { name: 'camera check', status: 'ok', detail: 'live' },
        { name: 'motors check', status: 'warn', detail: 'hot let it rest' },
      ],
    });
  });
});
