/**
 * What the desktop server broadcasts on /ws (the ticker is server/http/broadcast-ticker.ts):
 * `{type: "state"}` frames at ROBOT_WS_HZ from the one cache, and a `{type: "health"}` frame once
 * a second so a dashboard learns of an outage even before the first state arrives. A stale state
 * keeps flowing with its presence and age: the dashboard shows how old it is rather than
 * freezing silently, which is why the state feed has no signature to skip unchanged frames by.
 */
import type { HealthFrame } from '../contract/ws.ts';
import type { BroadcastFeed } from '../http/broadcast-ticker.ts';
import type { RobotCore } from './robot-core.ts';

export const DESKTOP_SOCKET = '/ws';

export function desktopFeeds(robot: Pick<RobotCore, 'stateJson' | 'health'>): BroadcastFeed[] {
  return [
    {
      frame: () => {
        const json = robot.stateJson();
        // The cached state serialised once, with the frame type spliced in front of its members.
        return json ? `{"type":"state",${json.slice(1)}` : undefined;
      },
    },
    { frame: () => ({ type: 'health', ...robot.health() }) satisfies HealthFrame, everyMs: 1000 },
  ];
}
