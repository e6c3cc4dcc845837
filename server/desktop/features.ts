/**
 * The features of the desktop server composed over one robot core: the event log, face tracking and the
 * turn-toward-speaker controller, motion and control, and what /ws clients may send. The hub is
 * built before them (docs/architecture.md, "Build order"), so its broadcast comes in as an input.
 */
import type { Config } from '../config.ts';
import { createAgent, type Agent } from '../agent/agent.ts';
import { abortTurns } from '../agent/stop-signal.ts';
import { appLogsSocketHandler } from '../apps/app-log-socket.ts';
import type { RecentAppLogs } from '../apps/app-logs.ts';
import type { AppsService } from '../apps/apps-service.ts';
import { cameraSocketHandler, createVideoRelay, videoSocketHandler, type FrameHub } from '../camera/index.ts';
import type { PlatformChat } from '../contract/platform.ts';
import type { AgentTool } from '../agent/tools/types.ts';
import type { RouteSpec } from '../http/route-table.ts';
import type { WsClient } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import { createControl, type Control } from '../motion/control.ts';
import { createStopLatch } from '../motion/stop-latch.ts';
import { createDoaTurner, type DoaTurner } from '../perception/doa-turner.ts';
import { motionGate } from '../perception/motion-gate.ts';
import type { TrackingController } from '../perception/tracking.ts';
import { createPersonas } from '../personas/personas.ts';
import type { HeardUtterance } from '../personas/voice/voice-turn.ts';
import { createPush, type Push, type PushOptions } from '../push/index.ts';
import { NO_RECORDER_TAP, type RecorderTap } from '../recorder/index.ts';
import { createSelfTest, type SelfTest } from '../selftest/selftest.ts';
import { createDesktopApps } from './apps-feature.ts';
import { createEventLog, type EventLog } from './event-log.ts';
import type { PlatformNotice } from '../contract/platform-enrol.ts';
import { createPlatformFeed, type PlatformPort } from './platform-port.ts';
import type { TrackedRobotCore } from './robot-core.ts';
import { agentRoutes } from './routes/agent-routes.ts';
import { appsRoutes } from './routes/apps-routes.ts';
import { cameraRoutes, relayStatsRoute } from '../camera/camera-routes.ts';
import { controlRoutes } from './routes/control-routes.ts';
import { perceptionRoutes } from './routes/perception-routes.ts';
import { personaRoutes } from './routes/persona-routes.ts';
import { platformRoutes } from './routes/platform-routes.ts';
import { pushRoutes } from './routes/push-routes.ts';
import { selfTestRoutes } from './routes/selftest-routes.ts';
import { handleSocketMessages } from './socket-messages.ts';

export interface DesktopFeatures {
  readonly control: Control;
  readonly tracking: TrackingController;
  readonly doa: DoaTurner;
  readonly events: EventLog;
  readonly agent: Agent;
  /** Web Push to the owner's browsers. */
  readonly push: Push;
  /** The robot's apps (server/apps/): the STOP stops the running one. */
  readonly apps: AppsService;
  /** App logs as followed live or last read, per app, for the logs route and the diagnostics bundle. */
  readonly appLogs: RecentAppLogs;
  /** "Check the robot" (server/selftest/). */
  readonly selftest: SelfTest;
  readonly routes: RouteSpec[];
  readonly onSocket: (client: WsClient) => void;
  /** A notify envelope from the platform: an event receipt and a `notify` frame on /ws. */
  notify(notice: PlatformNotice): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The hub's /ws side as the features use it (server/http/ws-hub.ts). */
export interface DashboardHub {
  /** Sends a frame to every open dashboard. */
  broadcast(frame: object): void;
  /** How many dashboards are open. */
  viewers(): number;
}

export interface FeatureOptions {
  /** The robot core, built with its face tracker (robot-core.ts, RobotCoreOptions.tracking). */
  robot: TrackedRobotCore;
  hub: DashboardHub;
  /** The one camera client of this robot, shared by every viewer. */
  camera: FrameHub;
  log: Log;
  config: Pick<Config, 'trackAutostart' | 'dataDir' | 'model' | 'thinkerIntervalSeconds' | 'camera'>;
  /** The platform client's pieces, bound by main/ (docs/architecture.md, "Folders and the direction of imports": server/ never imports it). */
  platform?: {
    port?: PlatformPort;
    chat?: PlatformChat;
    fleetTools?: () => readonly AgentTool[];
    /** Every utterance the voice persona understood, for the platform's transcript route. */
    heard?: (heard: HeardUtterance) => void;
  };
  /** Web Push tuning (thresholds, the push services' TLS agent): tests only. */
  push?: PushOptions;
  /** The black box recorder's tap: broadcasts, control requests and joystick frames are recorded. */
  recorder?: RecorderTap;
  /** The bearer the platform presents when it dials this robot as an endpoint device: the owner token. */
  endpointSecret?: string;
}

export function createDesktopFeatures({
  robot,
  hub,
  camera,
  log,
  config,
  platform,
  push: pushOptions,
  recorder = NO_RECORDER_TAP,
  endpointSecret,
}: FeatureOptions): DesktopFeatures {
  const push = createPush({
    robot,
    viewers: hub.viewers,
    dataDir: config.dataDir,
    log: log.child('push'),
    ...pushOptions,
  });
  // Push reads what dashboards are told (resume receipts, notify frames) to reach the ones not open.
  const broadcast = (frame: object) => {
    push.observe(frame);
    recorder.observe(frame);
    hub.broadcast(frame);
  };
  const events = createEventLog({ broadcast });
  // Built with the core, on its daemon and feed, so its status is in the state object (robot-core.ts).
  const tracking = robot.tracking;
  // The latch and the running turns are built before Control, so the stop is given what it ends
  // when it is built: the robot's app (whose service honours the same latch) and the agent's
  // turns, aborted from the set the agent keeps them in (the agent's tools use Control).
  const latch = createStopLatch(robot.services);
  const runningTurns = new Set<AbortController>();
  const { apps, appLogStream, appLogs } = createDesktopApps({ robot, latch, broadcast, log });
  const control = createControl({
    robot,
    emit: (e) => events.emit(e),
    holds: tracking,
    log: log.child('control'),
    latch,
    stopExtras: { app: () => apps.stopForEmergency(), abortTurns: () => abortTurns(runningTurns) },
    onStop: (stop) => push.stopped(stop),
  });
  const doa = createDoaTurner({
    feed: robot.feed,
    tracker: tracking,
    motion: motionGate(control),
    log: log.child('doa'),
    services: robot.services,
    broadcast,
  });
  // Live video for browsers: the daemon's H.264 forwarded as it comes, no decoder (camera/relay/).
  const relay = createVideoRelay({ hub: camera, log: log.child('relay') });
  const baseAgent = createAgent({
    dataDir: config.dataDir,
    env: config.model,
    control,
    robot,
    broadcast,
    recentEvents: (n) => events.recent(n),
    snapshot: async () => (await camera.snapshot(2000))?.jpeg,
    tracking: { setEnabled: (on) => tracking.setEnabled(on) },
    ...(platform?.chat ? { platform: platform.chat } : {}),
    ...(platform?.fleetTools ? { fleetTools: platform.fleetTools } : {}),
    log: log.child('agent'),
    runningTurns,
  });
  // The same agent, its Ask and fleet-turn doors also telling push when a turn has finished.
  const agent = push.watchTurns(baseAgent);
  const selftest = createSelfTest({
    robot,
    camera,
    cameraSource: config.camera.kind,
    control,
    apps,
    dataDir: config.dataDir,
    log: log.child('selftest'),
  });
  const platformFeed = createPlatformFeed({ port: platform?.port, emit: (e) => events.emit(e), broadcast });
  // The thinker runs from the start; voice listener and messenger bot are OFF until switched on.
  const personas = createPersonas({
    dataDir: config.dataDir,
    agent,
    control,
    robot,
    recentEvents: (n) => events.recent(n),
    thinker: { intervalSeconds: config.thinkerIntervalSeconds },
    holds: tracking,
    snapshot: async () => (await camera.snapshot(2000))?.jpeg,
    services: robot.services,
    log,
    // The robot's microphone comes through the camera's one WebRTC session (voice source `daemon`).
    microphone: camera,
    ...(platform?.heard ? { heard: platform.heard } : {}),
  });
  return {
    control,
    tracking,
    doa,
    events,
    agent,
    push,
    apps,
    appLogs,
    selftest,
    routes: [
      ...recorder.wrapControlRoutes(controlRoutes({ control })),
      ...perceptionRoutes({ tracking, doa }),
      ...agentRoutes(agent),
      ...platformRoutes({ port: platform?.port, endpointSecret }),
      ...cameraRoutes(camera),
      relayStatsRoute(camera, relay),
      ...pushRoutes(push),
      ...personaRoutes(personas),
      ...appsRoutes({ apps, logs: (app) => appLogs.read(app) }),
      ...selfTestRoutes(selftest),
    ],
    onSocket: handleSocketMessages({
      control: recorder.watchJoystick(control),
      refusedJoystick: (caller, code) => recorder.refusedJoystick(caller.kind, code),
      handlers: {
        camera: cameraSocketHandler(camera),
        video: videoSocketHandler(relay, log.child('relay')),
        app_logs: appLogsSocketHandler(appLogStream),
      },
    }),
    notify: (notice) => platformFeed.notify(notice),
    async start() {
      control.start();
      // Tracking's first face read and enable can take seconds with the daemon down: not awaited.
      void tracking.start();
      doa.start();
      await agent.start();
      await personas.start();
      await push.start();
      apps.startPolling();
    },
    async stop() {
      apps.close();
      relay.stop();
      appLogStream.close();
      push.stop();
      platformFeed.close();
      await personas.stop();
      await agent.stop();
      doa.stop();
      await tracking.stop();
      control.close();
    },
  };
}
