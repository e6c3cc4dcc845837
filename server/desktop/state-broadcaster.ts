/**
 * Sends `{type: "state"}` frames at ROBOT_WS_HZ to every /ws client from the one cache, and a
 * `{type: "health"}` frame once a second so a dashboard learns of an outage even before the
 * first state arrives. Each frame is serialised once per tick, whatever the number of viewers.
 * A stale state keeps flowing with its presence and age: the dashboard shows how old it is
 * rather than freezing silently.
 */
import type { HealthFrame } from '../contract/ws.ts';
import type { WsHub } from '../http/ws-hub.ts';
import type { RobotCore } from './robot-core.ts';

/** Past this much lateness the schedule restarts instead of bursting to catch up. */
const RESYNC_MS = 1000;

/**
 * Ticks on a fixed grid of deadlines rather than setInterval: on a loaded machine a late tick is
 * followed by an early one, so viewers still get ROBOT_WS_HZ frames per second on average.
 */
export function startTicker(hz: number, tick: () => void, now: () => number = () => performance.now()): () => void {
  const period = 1000 / hz;
  let start = now();
  let n = 0;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    n += 1;
    let delay = start + n * period - now();
    if (delay < -RESYNC_MS) {
      start = now();
      n = 0;
      delay = 0;
    }
    timer = setTimeout(run, Math.max(0, delay));
  };
  const run = () => {
    tick();
    schedule();
  };
  schedule();
  return () => clearTimeout(timer);
}

export function startStateBroadcast(robot: RobotCore, hub: WsHub, hz: number): () => void {
  let ticks = 0;
  const perSecond = Math.max(1, Math.round(hz));
  return startTicker(hz, () => {
    if (hub.clients('/ws').size === 0) return;
    const json = robot.stateJson();
    // The cached state serialised once, with the frame type spliced in front of its members.
    if (json) hub.broadcast('/ws', `{"type":"state",${json.slice(1)}`);
    if (ticks++ % perSecond === 0)
      hub.broadcast('/ws', JSON.stringify({ type: 'health', ...robot.health() } satisfies HealthFrame));
  });
}
