import { describe, expect, it } from 'vitest';
import { createManualClock } from '../testing/manual-clock.ts';
import { startBroadcast, startTicker, type BroadcastFeed } from './broadcast-ticker.ts';

/**
 * A hub stand-in: `viewers` clients on every path, told to the listeners as the hub tells them;
 * every broadcast kept with the clock's time.
 */
function fakeHub(clock: { now(): number }, viewers = 1) {
  const sent: { at: number; path: string; frame: string | object }[] = [];
  const listeners = new Set<(path: string, count: number) => void>();
  const hub = {
    viewers,
    setViewers(path: string, n: number) {
      hub.viewers = n;
      for (const listener of listeners) listener(path, n);
    },
    clients: () => new Set(Array.from({ length: hub.viewers }, (_, i) => i)) as never,
    broadcast: (path: string, frame: string | object) => {
      sent.push({ at: clock.now(), path, frame });
      return hub.viewers;
    },
    onClientsChanged: (listener: (path: string, count: number) => void) => (
      listeners.add(listener),
      () => void listeners.delete(listener)
    ),
  };
  return { hub, sent };
}

describe('broadcast ticker', () => {
  it('keeps the average rate when a tick runs late', () => {
    const clock = createManualClock(0);
    const ticks: number[] = [];
    const stop = startTicker(clock, 10, () => ticks.push(clock.now()));
    clock.advance(100);
    // The machine stalls for 250 ms after the first tick: no timer runs in that time.
    clock.set(clock.now() + 250);
    for (let i = 0; i < 90; i += 1) clock.advance(10);
    stop();
    // 1250 ms of clock (1000 stepped + the 250 ms stall) at 10 Hz: twelve ticks, none lost.
    expect(ticks).toHaveLength(12);
    // The ticks after the stall come back to the 100 ms grid rather than drifting by 250 ms.
    expect(ticks[ticks.length - 1]).toBe(1200);
  });

  it('starts a new grid when the wall clock is set back instead of falling silent', () => {
    // Real timers run after their delay whatever the wall clock does: a clock that keeps only the
    // last timer and its delay shows what the ticker asks for next.
    let now = 10_000;
    let next: { run: () => void; ms: number } | undefined;
    const clock = {
      now: () => now,
      schedule: (run: () => void, ms: number) => ((next = { run, ms }), () => undefined),
    };
    const ticks: number[] = [];
    startTicker(clock, 10, () => ticks.push(now));
    const fire = () => {
      const timer = next as { run: () => void; ms: number };
      now += timer.ms;
      timer.run();
      return next?.ms;
    };
    expect(fire()).toBe(100);
    now = 0;
    // The old grid's next deadline is ten seconds away on the set-back clock: a new grid starts.
    expect(fire()).toBe(0);
    expect(fire()).toBe(100);
    expect(ticks).toEqual([10_100, 100, 100]);
  });

  it('leaves no timer behind when stopped, even from inside a tick', () => {
    const clock = createManualClock(0);
    const stop = startTicker(clock, 20, () => stop());
    clock.advance(50);
    expect(clock.pending()).toBe(0);
  });

  it('runs no timer while the path has no viewers, and ticks while it has', () => {
    const clock = createManualClock(0);
    const { hub, sent } = fakeHub(clock, 0);
    let reads = 0;
    const stop = startBroadcast({ clock, hz: 10, hub, path: '/ws', feeds: [{ frame: () => ((reads += 1), {}) }] });
    expect(clock.pending()).toBe(0);
    clock.advance(1000);
    expect({ reads, sent: sent.length }).toEqual({ reads: 0, sent: 0 });
    // Another path's viewers start nothing.
    hub.setViewers('/ws/other', 1);
    hub.viewers = 0;
    expect(clock.pending()).toBe(0);
    hub.setViewers('/ws', 1);
    clock.advance(100);
    expect({ reads, sent: sent.map((s) => s.path) }).toEqual({ reads: 1, sent: ['/ws'] });
    hub.setViewers('/ws', 2);
    clock.advance(100);
    expect(reads).toBe(2);
    // The last viewer leaves: the ticker's timer goes with it.
    hub.setViewers('/ws', 0);
    expect(clock.pending()).toBe(0);
    hub.setViewers('/ws', 1);
    clock.advance(100);
    expect(reads).toBe(3);
    stop();
    expect(clock.pending()).toBe(0);
  });

  it('sends a changed frame at the next tick and an unchanged one once a second', () => {
    const clock = createManualClock(0);
    const { hub, sent } = fakeHub(clock);
    let value = 1;
    const feed: BroadcastFeed = {
      frame: () => ({ value, time: clock.now() }),
      signature: (frame) => String((frame as { value: number }).value),
      everyMs: 1000,
    };
    const stop = startBroadcast({ clock, hz: 10, hub, path: '/ws/state', feeds: [feed] });
    clock.advance(500);
    value = 2;
    clock.advance(1500);
    stop();
    // First at once, the change at the next tick, then the heartbeat a second after each send.
    expect(sent.map((s) => s.at)).toEqual([100, 600, 1600]);
  });

  it('sends an unsigned feed whenever its period has passed, in feed order within a tick', () => {
    const clock = createManualClock(0);
    const { hub, sent } = fakeHub(clock);
    const feeds: BroadcastFeed[] = [{ frame: () => 'every tick' }, { frame: () => 'each second', everyMs: 1000 }];
    const stop = startBroadcast({ clock, hz: 10, hub, path: '/ws', feeds });
    clock.advance(2000);
    stop();
    expect(sent.filter((s) => s.frame === 'every tick')).toHaveLength(20);
    expect(sent.filter((s) => s.frame === 'each second').map((s) => s.at)).toEqual([100, 1100]);
    expect(sent.slice(0, 2).map((s) => s.frame)).toEqual(['every tick', 'each second']);
  });

  it('keeps broadcasting when a feed throws: the other feeds still go out, and the failing one again later', () => {
    const clock = createManualClock(0);
    const { hub, sent } = fakeHub(clock);
    const errors: unknown[] = [];
    let failing = true;
    const feeds: BroadcastFeed[] = [
      {
        frame: () => {
          if (failing) throw new Error('no state');
          return 'state';
        },
      },
      { frame: () => 'health', everyMs: 1000 },
    ];
    const stop = startBroadcast({ clock, hz: 10, hub, path: '/ws', feeds, onError: (e) => errors.push(e) });
    clock.advance(1000);
    failing = false;
    clock.advance(1000);
    stop();
    expect(errors).toHaveLength(10);
    expect(sent.filter((s) => s.frame === 'health').map((s) => s.at)).toEqual([100, 1100]);
    expect(sent.filter((s) => s.frame === 'state')).toHaveLength(10);
  });

  it('runs the next tick after one that threw', () => {
    const clock = createManualClock(0);
    const ticks: number[] = [];
    const stop = startTicker(clock, 10, () => {
      ticks.push(clock.now());
      if (ticks.length === 1) throw new Error('first tick fails');
    });
    clock.advance(300);
    stop();
    expect(ticks).toEqual([100, 200, 300]);
  });

  it('skips a feed with nothing to send yet and sends it once there is', () => {
    const clock = createManualClock(0);
    const { hub, sent } = fakeHub(clock);
    let ready = false;
    const stop = startBroadcast({
      clock,
      hz: 10,
      hub,
      path: '/ws',
      feeds: [{ frame: () => (ready ? 'x' : undefined) }],
    });
    clock.advance(300);
    ready = true;
    clock.advance(100);
    stop();
    expect(sent.map((s) => s.at)).toEqual([400]);
  });
});
