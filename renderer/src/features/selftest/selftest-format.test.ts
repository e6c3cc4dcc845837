import { describe, expect, it } from 'vitest';
import { meterBars, summary } from './selftest-format.ts';

const check = (outcome: 'ok' | 'warn' | 'fail' | 'skipped') => ({
  id: outcome,
  title: '',
  outcome,
  detail: '',
  advice: '',
  durationMs: 1,
});

describe('self-test words', () => {
  it('sums the outcomes up', () => {
    const base = { startedAt: '', finishedAt: '', outcome: 'ok' as const };
    expect(summary({ ...base, checks: [check('ok'), check('ok'), check('skipped')] })).toBe('All 2 checks passed.');
    expect(summary({ ...base, outcome: 'fail', checks: [check('fail'), check('warn'), check('ok')] })).toBe(
      '1 failed, 1 with a warning.',
    );
  });

  it('draws the meter on a −80..0 dBFS scale, zeros flat', () => {
    expect(meterBars([0, 1, 0.01, 1e-5])).toEqual([0, 1, 0.5, 0]);
    expect(meterBars('nope')).toEqual([]);
  });
});
