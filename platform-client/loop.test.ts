import { describe, expect, it } from 'vitest';
import { createLoop } from './loop.ts';
import { createManualScheduler } from './test/manual-scheduler.ts';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('createLoop', () => {
  it('runs at start and then after the delay each tick returns', async () => {
    const sched = createManualScheduler(0);
    const at: number[] = [];
    const delays = [1_000, 3_000, 2_000];
    const loop = createLoop('t', sched, async () => (at.push(sched.now()), delays.shift() ?? 10_000), quiet);
    loop.start();
    await sched.advance(6_000);
    expect(at).toEqual([0, 1_000, 4_000, 6_000]);
  });

  it('does not reschedule when stopped during a tick', async () => {
    const sched = createManualScheduler(0);
    let ticks = 0;
    const loop = createLoop(
      't',
      sched,
      async () => {
        ticks += 1;
        loop.stop();
        return 1_000;
      },
      quiet,
    );
    loop.start();
    await sched.advance(10_000);
    expect(ticks).toBe(1);
    expect(sched.pending()).toBe(0);
    expect(loop.running()).toBe(false);
  });

  it('kick runs a tick at once, and after the one in flight', async () => {
    const sched = createManualScheduler(0);
    const at: number[] = [];
    const loop = createLoop('t', sched, async () => (at.push(sched.now()), 60_000), quiet);
    loop.start();
    await sched.advance(0);
    await sched.advance(5_000);
    loop.kick();
    await sched.advance(0);
    expect(at).toEqual([0, 5_000]);
    expect(sched.dueIn()).toEqual([60_000]);
  });

  it('slows down and reports when a tick throws', async () => {
    const sched = createManualScheduler(0);
    const errors: string[] = [];
    const loop = createLoop('t', sched, async () => Promise.reject(new Error('bug')), {
      ...quiet,
      error: (m) => void errors.push(m),
    });
    loop.start();
    await sched.advance(0);
    expect(errors).toEqual(['t tick failed']);
    expect(sched.dueIn()).toEqual([60_000]);
  });
});
