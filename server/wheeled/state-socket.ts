/**
 * /ws/state: the base's state for the dashboard's map and readouts. The first frame carries the
 * trail; then a frame goes out at ROBOT_WS_HZ while anything changes (the base moves, the gate
 * or the preset changes), and once a second otherwise so a viewer can tell the link is alive.
 * One state object per tick is serialised once for every viewer (the hub's broadcast).
 */
import type { WheeledState } from '../contract/wheeled.ts';
import type { BroadcastFeed } from '../http/broadcast-ticker.ts';
import type { WsClient } from '../http/ws-hub.ts';

export const STATE_PATH = '/ws/state';
const HEARTBEAT_MS = 1000;

/** What makes two states different for a viewer: everything but the time stamp (the frame type never changes). */
function signature(state: WheeledState): string {
  const { time: _time, ...rest } = state;
  return JSON.stringify(rest);
}

export function stateSocketHandler(state: (options?: { trail?: boolean }) => WheeledState): (client: WsClient) => void {
  return (client) => {
    client.send({ type: 'state', ...state({ trail: true }) });
  };
}

/** The broadcast's feed (server/http/broadcast-ticker.ts): a changed state at once, an unchanged one once a second. */
export function stateFeed(state: () => WheeledState): BroadcastFeed {
  return {
    frame: () => ({ type: 'state', ...state() }),
    signature: (frame) => signature(frame as WheeledState),
    everyMs: HEARTBEAT_MS,
  };
}
