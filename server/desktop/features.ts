/**
 * The features of server A composed over one robot core: the event log, face tracking and the
 * turn-toward-speaker controller, motion and control, and what /ws clients may send. The hub
 * is created after the routes, so frames are broadcast through a late-bound function.
 */
import type { Config } from '../config.ts';
import type { RouteSpec } from '../http/route-table.ts';
import type { WsClient } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import { createControl, type Control } from '../motion/control.ts';
import { createDoaTurner, type DoaTurner } from '../perception/doa-turner.ts';
import { motionGate } from '../perception/motion-gate.ts';
import { createTracking, trackingEngine, type TrackingController } from '../perception/tracking.ts';
import { createEventLog, type EventLog } from './event-log.ts';
import type { RobotCore } from './robot-core.ts';
import { controlRoutes } from './routes/control-routes.ts';
import { perceptionRoutes } from './routes/perception-routes.ts';
import { handleSocketMessages } from './socket-messages.ts';

export interface DesktopFeatures {
  readonly control: Control;
  readonly tracking: TrackingController;
  readonly doa: DoaTurner;
  readonly events: EventLog;
  readonly routes: RouteSpec[];
  readonly onSocket: (client: WsClient) => void;
  /** Connects broadcasts to the hub once it exists. */
  bindBroadcast(broadcast: (frame: object) => void): void;
  start(): void;
  stop(): Promise<void>;
}

export interface FeatureOptions {
  robot: RobotCore;
  log: Log;
  config: Pick<Config, 'trackAutostart'>;
}

export function createDesktopFeatures({ robot, log, config }: FeatureOptions): DesktopFeatures {
  let broadcastTo: (frame: object) => void = () => {};
  const broadcast = (frame: object) => broadcastTo(frame);
  const events = createEventLog({ broadcast });
  const tracking = createTracking({
    daemon: robot.daemon,
    daemonState: () => robot.feed.snapshot().status?.state,
    engine: trackingEngine(robot.simulated),
    autostart: config.trackAutostart,
    log: log.child('tracking'),
    services: robot.services,
    broadcast,
  });
  const control = createControl({ robot, emit: (e) => events.emit(e), holds: tracking, log: log.child('control') });
  const doa = createDoaTurner({
    feed: robot.feed,
    tracker: tracking,
    motion: motionGate(control),
    log: log.child('doa'),
    services: robot.services,
    broadcast,
  });
  robot.attachTracking(() => tracking.status());
  return {
    control,
    tracking,
    doa,
    events,
    routes: [...controlRoutes({ control }), ...perceptionRoutes({ tracking, doa })],
    onSocket: handleSocketMessages({ control }),
    bindBroadcast(fn) {
      broadcastTo = fn;
    },
    start() {
      control.start();
      // Tracking's first face read and enable can take seconds with the daemon down: not awaited.
      void tracking.start();
      doa.start();
    },
    async stop() {
      doa.stop();
      await tracking.stop();
      control.close();
    },
  };
}
