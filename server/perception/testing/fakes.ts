/**
 * Doubles for the perception unit tests: a clock moved by hand, a schedule run by hand, and a
 * daemon that answers the tracking routes like the real one (docs/daemon.md, "Media") while
 * recording each call.
 */
import type { Clock } from '../../clock.ts';
import type { DaemonClient } from '../../daemon/daemon-client.ts';
import type { FaceTarget } from '../../daemon/wire.ts';
import type { Schedule } from '../schedule.ts';

export interface FakeClock extends Clock {
  advance(ms: number): void;
}

export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
  };
}

export interface ManualSchedule {
  schedule: Schedule;
  /** Delays asked for, in order. */
  delays: number[];
  pending(): number;
  /** Runs every timer due now or earlier, in order. */
  runAll(): void;
}

export function manualSchedule(): ManualSchedule {
  let queue: Array<{ fn: () => void; cancelled: boolean }> = [];
  const delays: number[] = [];
  return {
    delays,
    schedule(fn, ms) {
      delays.push(ms);
      const entry = { fn, cancelled: false };
      queue.push(entry);
      return () => {
        entry.cancelled = true;
      };
    },
    pending: () => queue.filter((e) => !e.cancelled).length,
    runAll() {
      const due = queue;
      queue = [];
      for (const e of due) if (!e.cancelled) e.fn();
    },
  };
}

export const NO_FACE: FaceTarget = Object.freeze({ detected: false, x: null, y: null, roll: null, ts: null });

export function faceAt(x: number, y = 0, ts = 1): FaceTarget {
  return { detected: true, x, y, roll: 0, ts };
}

export interface FakeTrackingDaemon extends Pick<DaemonClient, 'setTracking' | 'face'> {
  calls: string[];
  /** What the next face polls answer. */
  nextFace: FaceTarget;
  /** Whether the daemon's tracker is on, as the real one would know. */
  on: boolean;
  weight: number;
  /** `enabled: false` answers, as without a camera. */
  noCamera: boolean;
  /** Throw this from every call while set. */
  failWith: Error | null;
  /** Face polls started and not yet answered. */
  facesInFlight: number;
  /** Hold face answers until released (to test one poll in flight). */
  gate: Promise<void> | null;
}

export function fakeTrackingDaemon(): FakeTrackingDaemon {
  const d: FakeTrackingDaemon = {
    calls: [],
    nextFace: { ...NO_FACE },
    on: false,
    weight: 1,
    noCamera: false,
    failWith: null,
    facesInFlight: 0,
    gate: null,
    async setTracking(enabled, weight) {
      d.calls.push(enabled ? `enable ${weight ?? 1}` : 'disable');
      if (d.failWith) throw d.failWith;
      if (!enabled) {
        d.on = false;
        return { status: 'ok', enabled: false };
      }
      if (d.noCamera) return { status: 'unavailable', enabled: false };
      d.on = true;
      d.weight = weight ?? 1;
      return { status: 'ok', enabled: true };
    },
    async face() {
      d.calls.push('face');
      d.facesInFlight += 1;
      try {
        if (d.gate) await d.gate;
        if (d.failWith) throw d.failWith;
        return { ...d.nextFace };
      } finally {
        d.facesInFlight -= 1;
      }
    },
  };
  return d;
}

/** Lets pending promise callbacks run (no timers involved). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}
