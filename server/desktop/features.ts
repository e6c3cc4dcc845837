/**
 * The features of server A composed over one robot core: the event log, motion and control,
 * and what /ws clients may send. The hub is created after the routes, so frames are broadcast
 * through a late-bound function.
 */
import type { RouteSpec } from '../http/route-table.ts';
import type { WsClient } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import { createControl, type Control } from '../motion/control.ts';
import { createEventLog, type EventLog } from './event-log.ts';
import type { RobotCore } from './robot-core.ts';
import { controlRoutes } from './routes/control-routes.ts';
import { handleSocketMessages } from './socket-messages.ts';

export interface DesktopFeatures {
  readonly control: Control;
  readonly events: EventLog;
  readonly routes: RouteSpec[];
  readonly onSocket: (client: WsClient) => void;
  /** Connects broadcasts to the hub once it exists. */
  bindBroadcast(broadcast: (frame: object) => void): void;
  start(): void;
  stop(): void;
}

export function createDesktopFeatures(options: { robot: RobotCore; log: Log }): DesktopFeatures {
  let broadcast: (frame: object) => void = () => {};
  const events = createEventLog({ broadcast: (frame) => broadcast(frame) });
  const control = createControl({ robot: options.robot, emit: (e) => events.emit(e), log: options.log.child('control') });
  return {
    control,
    events,
    routes: controlRoutes({ control }),
    onSocket: handleSocketMessages({ control }),
    bindBroadcast(fn) {
      broadcast = fn;
    },
    start: () => control.start(),
    stop: () => control.close(),
  };
}
