/**
 * The camera sampler on a wall clock set back (an NTP step, an operator fixing the time): the
 * real clock's timers wait in elapsed time, not until the wall clock reads a time again, so the
 * sampler must not ask to wait until the old time comes round. The clock here is that real
 * clock's model: `now()` is wall time, which `setBack` moves; timers run as elapsed time passes.
 */
import { expect, it } from 'vitest';
import type { CameraFrame } from '../camera/frame.ts';
import type { TimerClock } from '../clock.ts';
import { createCameraSampler } from './camera-sampler.ts';

function wallClock(start: number) {
  let elapsed = 0;
  let offset = start;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  const clock: TimerClock & { advance(ms: number): void; setBack(ms: number): void } = {
    now: () => offset + elapsed,
    schedule(fn, ms) {
      const timer = { at: elapsed + Math.max(0, ms), fn, id: (ids += 1) };
      timers.push(timer);
      return () => {
        const at = timers.indexOf(timer);
        if (at >= 0) timers.splice(at, 1);
      };
    },
    advance(ms) {
      const end = elapsed + ms;
      for (;;) {
        const next = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!next) break;
        timers.splice(timers.indexOf(next), 1);
        elapsed = next.at;
        next.fn();
      }
      elapsed = end;
    },
    setBack(ms) {
      offset -= ms;
    },
  };
  return clock;
}

it('keeps recording 5 fps after the wall clock is set back an hour', () => {
  const clock = wallClock(Date.UTC(2026, 10, 21, 12, 0, 0));
  const recorded: number[] = [];
  const sampler = createCameraSampler({ clock, fps: () => 5, record: (frame) => recorded.push(frame.seq) });
  let seq = 0;
  /** A 20 fps camera for `seconds` of elapsed time. */
  const camera = (seconds: number) => {
    for (let i = 0; i < seconds * 20; i += 1) {
      seq += 1;
      sampler.offer({
        jpeg: Buffer.from([seq % 256]),
        width: 1,
        height: 1,
        capturedAt: clock.now(),
        seq,
      } as CameraFrame);
      clock.advance(50);
    }
  };
  sampler.start();
  camera(4);
  const before = recorded.length;
  expect(before).toBeGreaterThanOrEqual(19);
  clock.setBack(3_600_000);
  camera(4);
  sampler.stop();
  // Four more seconds at 5 fps, give or take the tick the jump landed in.
  expect(recorded.length - before).toBeGreaterThanOrEqual(19);
});
