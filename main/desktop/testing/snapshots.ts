/** Cockpit snapshots for the desktop modules' tests: a healthy robot, changed by overrides. */
import type { CockpitSnapshot } from '../tray-model.ts';

type Daemon = CockpitSnapshot['health']['daemon'];

export interface SnapshotChanges {
  daemon?: Partial<Daemon>;
  camera?: CockpitSnapshot['health']['camera']['status'];
  problems?: Record<string, string>;
  pressureWarning?: boolean;
  stopped?: boolean;
  demo?: boolean;
}

export function snapshot(changes: SnapshotChanges = {}): CockpitSnapshot {
  return {
    health: {
      daemon: {
        reachable: true,
        presence: 'connected',
        url: 'simulator',
        simulated: true,
        physics: 'mockup',
        state: 'running',
        version: '1.0.0',
        version_check: {
          tested: { min: '1.10.0', max: '1.13.0' },
          in_range: null,
          warning: null,
          capabilities_known: false,
          missing: [],
        },
        loop_hz: null,
        ...changes.daemon,
      },
      camera: {
        status: changes.camera ?? 'live',
        fps: changes.camera === undefined || changes.camera === 'live' ? 15 : 0,
      },
      problems: changes.problems ?? {},
      pressure: {
        source: 'cockpit',
        pid: 1,
        fds: 40,
        fd_limit: 1024,
        close_wait: 0,
        cockpit_close_wait: 0,
        warning: changes.pressureWarning ?? false,
      },
    },
    stop: changes.stopped
      ? { state: 'running', detail: 'stopped by passkey at 2026-11-21T06:00:00.000Z; resume from the dashboard' }
      : { state: 'off', detail: 'not engaged' },
    demo: { state: changes.demo ? 'running' : 'off' },
  };
}

/** The daemon as the feed shows it when nothing answers. */
export const UNREACHABLE: SnapshotChanges = {
  daemon: { reachable: false, presence: 'down', state: null },
  problems: { 'daemon:unreachable': 'connect ECONNREFUSED 127.0.0.1:8000' },
};
