import { describe, expect, it } from 'vitest';
import type { AppsOverview } from '../../../../server/contract/index.ts';
import { keepsNewer } from './overview-order.ts';

const overview = (state: 'starting' | 'running', polledAt: string | null): AppsOverview => ({
  installed: [],
  startupApp: null,
  current: { name: 'clumsy_dancer', state, error: null, errorLines: [], since: '2026-11-28T10:00:00.000Z' },
  polledAt,
  problem: null,
});

describe('keepsNewer', () => {
  const starting = overview('starting', '2026-11-28T10:00:00.020Z');
  const running = overview('running', '2026-11-28T10:00:02.020Z');

  it('keeps a frame of a later poll over an action answer that arrives after it', () => {
    expect(keepsNewer(running, starting)).toBe(running);
  });

  it('takes a later poll, the same poll again (new lists after a job), and anything over nothing', () => {
    expect(keepsNewer(starting, running)).toBe(running);
    const sameRead = { ...starting, installed: [{ name: 'x', description: '', updateAvailable: false }] };
    expect(keepsNewer(starting, sameRead)).toBe(sameRead);
    expect(keepsNewer(null, starting)).toBe(starting);
  });

  it('takes a first read over an overview that had none', () => {
    const unread = overview('starting', null);
    expect(keepsNewer(unread, starting)).toBe(starting);
    expect(keepsNewer(starting, unread)).toBe(starting);
  });
});
