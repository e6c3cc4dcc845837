/**
 * The camera's recording rate, kept by the clock rather than by the frames. The frame hub's JPEG
 * subscription only stores the newest frame (no work per frame); a tick scheduled on the clock
 * every 1000/fps ms records that frame if it has not been recorded yet. The ticks are anchored to
 * when sampling began (tick n is due at anchor + n × gap), so a late tick does not push the later
 * ones back. A tick that finds no new frame, or slots that passed while the event loop was busy
 * (a loaded machine runs timers late), are owed: the next new frames are recorded as they arrive
 * until the debt is paid, at most `MAX_OWED` of them, so the rate holds at the target under load
 * without a burst (each one is a distinct newer frame, never the same picture twice). A camera
 * slower than the target caps the recording at its own rate. Recording hands the bytes to the
 * ring's queue and returns; nothing waits for the disk.
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

/** Slots a late schedule may catch up, each with a new frame as it arrives. */
export const MAX_OWED = 2;

export function createCameraSampler(deps: CameraSamplerDeps): CameraSampler {
  let newest: CameraFrame | undefined;
  let recorded: CameraFrame | undefined;
  let cancel: (() => void) | undefined;
  let anchor = 0;
  let slot = 0;
  let owed = 0;

  const gap = () => 1000 / Math.max(1, deps.fps());
  const take = (frame: CameraFrame) => {
    recorded = frame;
    deps.record(frame, deps.clock.now());
  };
  const scheduleNext = () => {
    const now = deps.clock.now();
    // The wall clock was set back (more than a slot before the tick just run): the ticks count
    // from now, or the next would wait until the clock reads the old time again, an hour for an
    // hour's step, and record nothing meanwhile.
    if (now < anchor + (slot - 1) * gap()) anchor = now - slot * gap();
    slot += 1;
    // Slots already past (the tick came late) are owed, not ticked through.
    const behind = Math.floor((now - (anchor + slot * gap())) / gap());
    if (behind >= 0) {
      owed = Math.min(MAX_OWED, owed + behind + 1);
      slot += behind + 1;
    }
    cancel = deps.clock.schedule(tick, anchor + slot * gap() - now);
  };
  const tick = () => {
    const frame = newest;
    if (frame && frame !== recorded) take(frame);
    else owed = Math.min(MAX_OWED, owed + 1);
    scheduleNext();
  };

  return {
    offer(frame) {
      if (!frame.jpeg) return;
      newest = frame;
      if (owed > 0 && cancel) {
        owed -= 1;
        take(frame);
      }
    },
    start() {
      if (cancel) return;
      anchor = deps.clock.now();
      slot = 0;
      owed = 0;
      // The first frame is taken at once (often the hub's current picture, offered on subscribe).
      cancel = deps.clock.schedule(tick, 0);
    },
    stop() {
      cancel?.();
      cancel = undefined;
      newest = undefined;
      recorded = undefined;
      owed = 0;
    },
  };
}
