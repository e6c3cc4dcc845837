/**
 * setupServer(): the same cockpit `npm run serve` runs (composeCockpit), started in-process.
 * Without an explicit daemon it uses the real one when it answers, else the simulator, as
 * `npm start` does.
 */
import { app } from 'electron';
import type { PlatformNotification } from '../../platform-client/index.ts';
import { createLog, type Log } from '../../server/index.ts';
import { composeCockpit, type ComposedCockpit } from '../compose.ts';
import { remoteAddress } from '../desktop/cockpit-view.ts';
import { windowOrigin } from '../desktop/navigation.ts';
import { cockpitArgv } from '../desktop/shell-paths.ts';
import { parseArgs } from '../flags.ts';
import { daemonAnswers } from '../launch.ts';

export interface DesktopServer {
  readonly composed: ComposedCockpit;
  /** The dashboard's origin for the window (localhost, so secure-context APIs work). */
  readonly origin: string;
  readonly log: Log;
  /** The address a phone or another computer opens, if the cockpit has one. */
  remoteAddress(): string | undefined;
  /** Platform notify envelopes, also shown natively. */
  onPlatformNotice(listener: (notification: PlatformNotification) => void): void;
  stop(): Promise<void>;
}

const REAL_DAEMON = 'http://127.0.0.1:8000';

export async function setupServer(): Promise<DesktopServer> {
  const { flags } = parseArgs(cockpitArgv(process.argv, app.isPackaged));
  const explicit = flags.sim === true || flags.daemon !== undefined || Boolean(process.env['ROBOT_DAEMON_URL']);
  const chosen = explicit || (await daemonAnswers(REAL_DAEMON)) ? flags : { ...flags, sim: true };
  const listeners = new Set<(notification: PlatformNotification) => void>();
  let log: Log | undefined;
  const composed = await composeCockpit({
    flags: chosen,
    log: (config) => (log = createLog({ level: config.logLevel, scope: 'cockpit' })),
    onNotify: (notification) => listeners.forEach((listener) => listener(notification)),
    // After a firmware install: quit (the usual graceful shutdown) and start the new version.
    restart: () => {
      app.relaunch();
      app.quit();
    },
  });
  const desktopLog = (log ?? createLog({ scope: 'cockpit' })).child('desktop');
  const { cockpit, config } = composed;
  desktopLog.info(cockpit.simulated ? 'using the built-in simulated robot' : 'using the robot daemon', {
    daemon: cockpit.daemonUrl,
    dashboard: windowOrigin(config.host, cockpit.port),
  });
  return {
    composed,
    origin: windowOrigin(config.host, cockpit.port),
    log: desktopLog,
    remoteAddress: () => remoteAddress(cockpit, config.host),
    onPlatformNotice: (listener) => void listeners.add(listener),
    stop: () => composed.stop(),
  };
}
