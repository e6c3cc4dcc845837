/**
 * The one place the desktop shell reads the running cockpit for its tray and alerts: the same
 * health object GET /api/health answers, and the stop and demo services of the state object.
 */
import type { Cockpit } from '../../server/index.ts';
import type { CockpitSnapshot } from './tray-model.ts';

export function readSnapshot(cockpit: Pick<Cockpit, 'robot'>): CockpitSnapshot {
  const { robot } = cockpit;
  return { health: robot.health(), stop: robot.services.get('stop'), demo: robot.services.get('demo') };
}
