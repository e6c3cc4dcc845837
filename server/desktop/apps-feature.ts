/**
 * The robot's apps for the desktop server (server/apps/): the apps service, their output followed
 * live while one runs or a dashboard watches its log, and the recent logs kept for the logs route
 * and the diagnostics bundle. Built before Control: the latched stop ends the running app, and
 * starting one is refused while the stop holds, so both are handed the same latch.
 */
import { createAppLogStream, liveAppLogs, type AppLogStream } from '../apps/app-log-stream.ts';
import { sharedAppLogReads, type RecentAppLogs } from '../apps/app-logs.ts';
import { createAppsService, type AppsService } from '../apps/apps-service.ts';
import type { Log } from '../log.ts';
import type { StopLatch } from '../motion/stop-latch.ts';
import type { RobotCore } from './robot-core.ts';

export interface DesktopApps {
  apps: AppsService;
  appLogStream: AppLogStream;
  appLogs: RecentAppLogs;
}

export function createDesktopApps(deps: {
  robot: RobotCore;
  latch: StopLatch;
  broadcast: (frame: object) => void;
  log: Log;
}): DesktopApps {
  const { robot, log } = deps;
  const daemon = {
    daemonUrl: robot.daemon.baseUrl,
    simulated: robot.simulated,
    wireless: () => robot.feed.snapshot().status?.wireless_version === true,
  };
  const appLogStream = createAppLogStream({ ...daemon, log: log.child('apps') });
  const apps = createAppsService({
    daemon: robot.daemon,
    broadcast: deps.broadcast,
    currentChanged: (current) =>
      appLogStream.appRunning(
        current && ['starting', 'running', 'stopping'].includes(current.state) ? current.name : null,
      ),
    latch: deps.latch,
    log: log.child('apps'),
    // Newer daemons can start an app without evicting a remote session (server/daemon/capabilities.ts).
    useNoEvict: () => robot.capabilities().has('POST', '/api/apps/start-app/{app_name}/no-evict'),
  });
  const appLogs = liveAppLogs(appLogStream, sharedAppLogReads(daemon));
  return { apps, appLogStream, appLogs };
}
