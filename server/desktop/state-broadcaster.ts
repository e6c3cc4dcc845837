/**
 * Sends `{type: "state"}` frames at ROBOT_WS_HZ to every /ws client from the one cache, and a
 * `{type: "health"}` frame once a second so a dashboard learns of an outage even before the
 * first state arrives. Each frame is built and serialised once per tick, whatever the number
 * of viewers. A stale state keeps flowing with its presence and age: the dashboard shows how
 * old it is rather than freezing silently.
 */
import type { WsHub } from '../http/ws-hub.ts';
import type { RobotCore } from './robot-core.ts';

export function startStateBroadcast(robot: RobotCore, hub: WsHub, hz: number): () => void {
  let ticks = 0;
  const perSecond = Math.max(1, Math.round(hz));
  const tick = () => {
    if (hub.clients('/ws').size === 0) return;
    const json = robot.stateJson();
    // The cached state serialised once, with the frame type spliced in front of its members.
    if (json) hub.broadcast('/ws', `{"type":"state",${json.slice(1)}`);
    if (ticks++ % perSecond === 0) hub.broadcast('/ws', JSON.stringify({ type: 'health', ...robot.health() }));
  };
  const timer = setInterval(tick, 1000 / hz);
  return () => clearInterval(timer);
}
