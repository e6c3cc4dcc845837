import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { withDeadline } from './deadline.ts';
import { createManualClock } from './testing/manual-clock.ts';

const never = () => new Promise<never>(() => undefined);

describe('withDeadline', () => {
  it('holds a timer while the work runs; at the deadline it aborts the work and rejects as a timeout', async () => {
    const clock = createManualClock();
    let seen: AbortSignal | undefined;
    // Work that ignores its signal: the caller is released all the same.
    const run = withDeadline(
      5000,
      (signal) => {
        seen = signal;
        return never();
      },
      { schedule: clock.schedule },
    );
    expect(clock.pending()).toBe(1);
    clock.advance(4999);
    expect(seen?.aborted).toBe(false);
    clock.advance(1);

    await expect(run).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(seen?.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('clears its timer when the work settles, either way', async () => {
    const clock = createManualClock();
    expect(await withDeadline(5000, async () => 'answer', { schedule: clock.schedule })).toBe('answer');
    expect(clock.pending()).toBe(0);
    const failing = withDeadline(5000, () => Promise.reject(new Error('refused')), { schedule: clock.schedule });
    await expect(failing).rejects.toThrow('refused');
    expect(clock.pending()).toBe(0);
  });

  it("ends at once with the caller's reason when the caller's signal aborts", async () => {
    const clock = createManualClock();
    const caller = new AbortController();
    let seen: AbortSignal | undefined;
    const run = withDeadline(
      5000,
      (signal) => {
        seen = signal;
        return never();
      },
      { signal: caller.signal, schedule: clock.schedule },
    );
    caller.abort(new Error('stopping'));

    await expect(run).rejects.toThrow('stopping');
    expect(seen?.aborted).toBe(true);
    expect(clock.pending()).toBe(0);
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(withDeadline(5000, never, { signal: aborted, schedule: clock.schedule })).rejects.toThrow('already');
  });

  it('fires with nothing but its own timer holding it, after a garbage collection', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const run = withDeadline(200, never);
    gc();
    await expect(run).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
