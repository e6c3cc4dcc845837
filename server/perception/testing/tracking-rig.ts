/** The tracking service over a fake daemon, clock and timers, as its tests drive it. */
import type { ServiceState } from '../../contract/state.ts';
import { silentLog } from '../../log.ts';
import { createTracking, type TrackingDeps } from '../tracking.ts';
import { fakeClock, fakeTrackingDaemon, flush, manualSchedule } from './fakes.ts';

export type TrackingRig = ReturnType<typeof trackingRig>;

export function trackingRig(overrides: Partial<TrackingDeps> = {}) {
  const daemon = fakeTrackingDaemon();
  const clock = fakeClock();
  const timers = manualSchedule();
  const frames: Array<Record<string, unknown>> = [];
  const services = new Map<string, ServiceState>();
  let daemonState: string | undefined = 'running';
  const tracking = createTracking({
    daemon,
    daemonState: () => daemonState,
    engine: 'daemon:yunet',
    autostart: true,
    log: silentLog,
    clock,
    schedule: timers.schedule,
    broadcast: (f) => frames.push(f),
    services,
    ...overrides,
  });
  const setDaemonState = (s: string | undefined) => {
    daemonState = s;
  };
  /** One loop turn: time passes, the poll runs. */
  const tick = async (ms = 500) => {
    await flush(); // lets the loop's own poll finish first, so this one reads the face set now
    clock.advance(ms);
    await tracking.poll();
    await flush();
  };
  return { daemon, clock, timers, frames, services, tracking, setDaemonState, tick };
}
