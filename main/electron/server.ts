/**
 * setupServer(): the same cockpit `npm run serve` runs, in an Electron utility process of its
 * own (main/desktop/server-entry.ts) under the restart loop (main/desktop/server-supervision.ts),
 * so a crash of the server is a restart, not the end of the app. The tray, the alerts and the
 * window session reach it through the desktop link (main/desktop/cockpit-remote.ts); the window
 * is a dashboard on its HTTP port like any browser. Without an explicit daemon it uses the real
 * one when it answers, else the simulator, as `npm start` does.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, utilityProcess } from 'electron';
import type { PlatformNotice } from '../../platform-client/index.ts';
import { createLog, type Log } from '../../server/index.ts';
import { boot } from '../boot.ts';
import type { ServerReady } from '../desktop/cockpit-link.ts';
import { createCockpitRemote, type CockpitRemote } from '../desktop/cockpit-remote.ts';
import { windowOrigin } from '../desktop/navigation.ts';
import { superviseServer, type LinkedProcess } from '../desktop/server-supervision.ts';
import { cockpitArgv } from '../desktop/shell-paths.ts';
import { formatFlags, parseArgs } from '../flags.ts';
import { daemonAnswers } from '../launch.ts';
import type { Supervisor } from '../supervisor.ts';

export interface DesktopServer {
  /** The dashboard's origin for the window (localhost, so secure-context APIs work). */
  readonly origin: string;
  readonly dataDir: string;
  readonly log: Log;
  /** The cockpit in its process, as the tray, the alerts and the window session use it. */
  readonly remote: CockpitRemote;
  /** The restart loop, for the tray's line about the server. */
  readonly supervisor: Supervisor<ServerReady>;
  /** The address a phone or another computer opens, if the cockpit has one. */
  remoteAddress(): string | undefined;
  /** Platform notify envelopes, also shown natively. */
  onPlatformNotice(listener: (notification: PlatformNotice) => void): void;
  stop(): Promise<void>;
}

const REAL_DAEMON = 'http://127.0.0.1:8000';
/** Compiled next to this file's folder: dist/main/desktop/server-entry.js. */
const ENTRY = join(dirname(fileURLToPath(import.meta.url)), '..', 'desktop', 'server-entry.js');

function forkServer(args: string[]): LinkedProcess {
  const child = utilityProcess.fork(ENTRY, args, { serviceName: 'Robot Cockpit server', stdio: 'inherit' });
  return {
    get pid() {
      return child.pid;
    },
    send: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    // A utility process reports an exit code only; a kill by signal shows as a non-zero code.
    onExit: (listener) => void child.once('exit', (code) => listener(code, null)),
    terminate: () => void child.kill(),
    kill: () => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    },
  };
}

export async function setupServer(): Promise<DesktopServer> {
  const { flags } = parseArgs(cockpitArgv(process.argv, app.isPackaged));
  const explicit = flags.sim === true || flags.daemon !== undefined || Boolean(process.env['ROBOT_DAEMON_URL']);
  const chosen = explicit || (await daemonAnswers(REAL_DAEMON)) ? flags : { ...flags, sim: true };
  // The shell's own log, at the level the server uses; the server process logs for itself.
  const { config } = await boot(chosen);
  const log = createLog({ level: config.logLevel, scope: 'cockpit' }).child('desktop');
  const remote = createCockpitRemote();
  // After a firmware install: quit (the usual graceful shutdown) and start the new version.
  remote.onRelaunch(() => {
    app.relaunch();
    app.quit();
  });
  const supervisor = superviseServer({ spawn: forkServer, args: formatFlags(chosen), remote, log: log.child('supervisor'), spare: config.spare });
  const ready = await supervisor.start();
  const origin = windowOrigin(ready.host, ready.port);
  log.info(ready.simulated ? 'using the built-in simulated robot' : 'using the robot daemon', {
    daemon: ready.daemonUrl,
    dashboard: origin,
  });
  return {
    origin,
    dataDir: ready.dataDir,
    log,
    remote,
    supervisor,
    remoteAddress: () => remote.remoteAddress(),
    onPlatformNotice: (listener) => remote.onNotice(listener),
    stop: () => supervisor.stop(),
  };
}
