/** Which robot the dashboard shows: its name, and above all whether it is the simulator. */
import type { DaemonInfo } from '../../../../server/contract/index.ts';

export type RobotKind = 'sim' | 'real' | 'unknown';

export interface RobotBadgeText {
  kind: RobotKind;
  label: string;
  detail: string | null;
}

const PHYSICS: Record<NonNullable<DaemonInfo['physics']>, string> = { mujoco: 'MuJoCo', mockup: 'mockup' };

export function robotBadge(daemon: DaemonInfo | null): RobotBadgeText {
  if (daemon === null) return { kind: 'unknown', label: 'Robot not identified yet', detail: null };
  if (daemon.simulated) return { kind: 'sim', label: 'Simulated robot', detail: null };
  const version = daemon.version ? `daemon ${daemon.version}` : 'daemon version unknown';
  // The robot's own daemon, run with no robot (docs/daemon.md): simulated, whatever speaks for it.
  if (daemon.physics)
    return { kind: 'sim', label: 'Simulated robot', detail: `${version} · ${PHYSICS[daemon.physics]}` };
  return { kind: 'real', label: 'Real robot', detail: version };
}

/** The header title; the generic name until the daemon tells its own. */
export function robotName(daemon: DaemonInfo | null): string {
  const name = daemon?.robotName?.trim();
  return name ? name : 'Robot Cockpit';
}
