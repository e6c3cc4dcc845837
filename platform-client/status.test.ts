import { describe, expect, it } from 'vitest';
import { createStatusStore } from './status.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('status: online', () => {
  it('is not online on a heartbeat the clock now puts in the future (the wall clock was set back)', () => {
    let now = 1_700_000_000_000;
    const status = createStatusStore(() => now, 'stable', quiet);
    status.update({ enrolled: true, connected: true, lastHeartbeatAt: now });
    expect(status.snapshot(now).online).toBe(true);
    expect(status.snapshot(now + 60_000).online).toBe(false);
    // Set back an hour: the beat an hour "ahead" says nothing of the last minute.
    now -= 3_600_000;
    expect(status.snapshot(now).online).toBe(false);
    // The next beat, on the new clock, counts again.
    status.update({ lastHeartbeatAt: now });
    expect(status.snapshot(now + 30_000).online).toBe(true);
  });
});
