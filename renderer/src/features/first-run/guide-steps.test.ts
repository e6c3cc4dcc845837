import { describe, expect, it } from 'vitest';
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
    const checks = [
      { name: 'camera', status: 'ok', detail: 'live' },
      { name: 'motors', status: 'warn', detail: 'hot', advice: 'let it rest' },
      { name: 'bogus', status: 'maybe' },
    ];
    expect(selftestOutcome({ ok: true, status: 200, data: { checks } })).toEqual({
      kind: 'done',
      checks: [
        { name: 'camera', status: 'ok', detail: 'live' },
        { name: 'motors', status: 'warn', detail: 'hot let it rest' },
      ],
    });
  });
});
