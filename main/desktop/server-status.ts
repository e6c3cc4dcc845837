/**
 * The desktop server's restart loop as the tray and the notifications show it: a state of
 * main/supervisor.ts turned into the tray's ServerSnapshot, and the notice that goes with a
 * restart.
 */
import { describeExit, type SupervisorState } from '../supervisor.ts';
import type { DesktopNotice } from './health-alerts.ts';
import type { CockpitSnapshot, ServerSnapshot } from './tray-model.ts';

export function serverSnapshot(state: SupervisorState<unknown>, previous?: ServerSnapshot): ServerSnapshot {
  const lastExit = 'exit' in state ? describeExit(state.exit) : (previous?.lastExit ?? null);
  return { restarting: state.kind === 'restarting' || (state.kind === 'starting' && state.restarts > 0), restarts: state.restarts, lastExit };
}

/** The last pushed snapshot with the server's state, which only the shell knows. */
export function withServer(snapshot: CockpitSnapshot, server: ServerSnapshot): CockpitSnapshot {
  return { ...snapshot, server };
}

/** What to tell the operator when the loop restarts the server; null for other states. */
export function restartNotice(state: SupervisorState<unknown>): DesktopNotice | null {
  if (state.kind === 'restarting')
    return {
      tag: 'server-restart',
      title: 'Cockpit server restarted',
      body: `The server stopped (${describeExit(state.exit)}) and is being started again. Phones and the window reconnect by themselves.`,
      urgent: false,
    };
  return null;
}
