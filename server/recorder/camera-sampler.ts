/**
 * The camera's recording rate, kept by the clock rather than by the frames. The frame hub's JPEG
 * subscription only stores the newest frame (no work per frame); a tick scheduled on the clock
 * every 1000/fps ms records that frame if it has not been recorded yet. The ticks are anchored to
 * when sampling began (tick n is due at anchor + n × gap), so a late tick does not push the later
 * ones back: with a 15 fps source the recording holds 5 fps, where gating on frame arrivals lost
 * a frame every time the source's cadence and the 200 ms schedule slipped past each other. A tick
 * that comes so late that slots were missed (a stalled event loop) records once and rejoins the
 * schedule at the next future slot: no burst. Recording a frame hands its bytes to the ring's
 * queue and returns; nothing waits for the disk.
 */
import type { CameraFrame } from '../camera/frame.ts';
import type { TimerClock } from '../clock.ts';

export interface CameraSamplerDeps {
  clock: TimerClock;
  /** Frames per second to record (at least 1 when sampling runs). */
  fps(): number;
  /** Records one frame at `ms` (returns at once: the ring's queue does the writing). */
  record(frame: CameraFrame, ms: number): void;
}

export interface CameraSampler {
  /** The frame hub's delivery: keeps the newest JPEG frame, nothing else. */
  offer(frame: CameraFrame): void;
  start(): void;
  stop(): void;
}

export function createCameraSampler(deps: CameraSamplerDeps): CameraSampler {
  let newest: CameraFrame | undefined;
  let recorded: CameraFrame | undefined;
  let cancel: (() => void) | undefined;
  let anchor = 0;
  let slot = 0;

  const gap = () => 1000 / Math.max(1, deps.fps());
  const scheduleNext = () => {
    const now = deps.clock.now();
    slot += 1;
    // Slots already past (the tick came late) are skipped, not caught up.
    const behind = Math.floor((now - (anchor + slot * gap())) / gap());
    if (behind >= 0) slot += behind + 1;
    cancel = deps.clock.schedule(tick, anchor + slot * gap() - now);
  };
  const tick = () => {
    const frame = newest;
    if (frame && frame !== recorded) {
      recorded = frame;
      deps.record(frame, deps.clock.now());
    }
    scheduleNext();
  };

  return {
    offer(frame) {
      if (frame.jpeg) newest = frame;
    },
    start() {
      if (cancel) return;
      anchor = deps.clock.now();
      slot = 0;
      // The first frame is taken at once (often the hub's current picture, offered on subscribe).
      cancel = deps.clock.schedule(tick, 0);
    },
    stop() {
      cancel?.();
      cancel = undefined;
      newest = undefined;
      recorded = undefined;
    },
  };
}
