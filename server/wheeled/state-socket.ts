/**
 * /ws/state: the base's state for the dashboard's map and readouts. The first frame carries the
 * trail; then a frame goes out at ROBOT_WS_HZ while anything changes (the base moves, the gate
 * or the preset changes), and once a second otherwise so a viewer can tell the link is alive.
 * One state object per tick is serialised once for every viewer (the hub's broadcast).
 */
import type { WheeledState } from '../contract/wheeled.ts';
import type { WsClient } from '../http/ws-hub.ts';

export const STATE_PATH = '/ws/state';
const HEARTBEAT_MS = 1000;

/** What makes two states different for a viewer: everything but the time stamp. */
function signature(state: WheeledState): string {
  const { time: _time, ...rest } = state;
  return JSON.stringify(rest);
}

export function stateSocketHandler(state: (options?: { trail?: boolean }) => WheeledState): (client: WsClient) => void {
  return (client) => {
    client.send({ type: 'state', ...state({ trail: true }) });
  };
}

export function startStateBroadcast(deps: {
  state: () => WheeledState;
  broadcast: (frame: object) => number;
  viewers: () => number;
  hz: number;
  now?: () => number;
}): () => void {
  const now = deps.now ?? Date.now;
  let last = '';
  let lastAt = 0;
  const timer = setInterval(
    () => {
      if (deps.viewers() === 0) return;
      const current = deps.state();
      const sig = signature(current);
      if (sig === last && now() - lastAt < HEARTBEAT_MS) return;
      last = sig;
      lastAt = now();
      deps.broadcast({ type: 'state', ...current });
    },
    Math.round(1000 / deps.hz),
  );
  timer.unref();
  return () => clearInterval(timer);
}
