/**
 * The public start/stop API of the cockpit. `npm run serve`, `npm start` and the Electron main
 * process all call startCockpit, so the same server code runs under each.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import { createDesktopApp, type DesktopApp } from './desktop/app.ts';
import { createRobotCore, type RobotCore } from './desktop/robot-core.ts';
import { WS_CLOSE } from './errors.ts';
import type { Log } from './log.ts';
import { startSimDaemon, type SimDaemon } from './sim/index.ts';

export type { Config, Flags } from './config.ts';
export { loadConfig, ConfigError, CONFIG_KEYS, defaultDataDir } from './config.ts';
export { createLog, type Log } from './log.ts';
export { ensureOwnerToken } from './auth/owner-token.ts';

export interface CockpitOptions {
  config: Config;
  log: Log;
  ownerToken: string;
  /** Built dashboard folder; defaults to dist/renderer of this checkout. */
  shellRoot?: string;
}

export interface Cockpit {
  /** Server A's base URL as reachable on this host (loopback form). */
  readonly url: string;
  readonly port: number;
  readonly daemonUrl: string;
  readonly simulated: boolean;
  readonly sim: SimDaemon | undefined;
  readonly robot: RobotCore;
  readonly app: DesktopApp;
  stop(): Promise<void>;
}

/** dist/renderer from a checkout (server/index.ts) and from a compiled build (dist/server/index.js). */
const DEFAULT_SHELL = [new URL('../dist/renderer', import.meta.url), new URL('../renderer/index.html', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .map((p) => (p.endsWith('index.html') ? dirname(p) : p))
  .find((p) => existsSync(join(p, 'index.html'))) ?? fileURLToPath(new URL('../dist/renderer', import.meta.url));
/** In-flight requests get this long to finish on shutdown before their sockets are cut. */
const DRAIN_MS = 3000;

export async function startCockpit(options: CockpitOptions): Promise<Cockpit> {
  const { config, log } = options;
  const sim = config.daemonUrl === 'sim' ? await startSimDaemon({ port: 0, log: log.child('sim') }) : undefined;
  const daemonUrl = sim ? sim.url : config.daemonUrl;
  const robot = createRobotCore({ daemonUrl, simulated: sim !== undefined, log: log.child('robot') });
  const app = createDesktopApp({
    config,
    log,
    robot,
    shellRoot: options.shellRoot ?? DEFAULT_SHELL,
    gate: {
      credentials: { ownerToken: options.ownerToken, validateSession: () => undefined },
      loopbackReads: config.loopbackReads,
    },
  });
  robot.start();
  const server = createServer(app.koa.callback());
  app.hub.attach(server);
  const stopBroadcast = app.startBroadcast();
  try {
    await listen(server, config.httpPort, config.host);
  } catch (err) {
    stopBroadcast();
    await robot.stop();
    await sim?.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    daemonUrl,
    simulated: sim !== undefined,
    sim,
    robot,
    app,
    stop: () =>
      (stopping ??= (async () => {
        stopBroadcast();
        app.hub.closeAll(WS_CLOSE.GOING_AWAY, 'cockpit shutting down');
        await closeServer(server);
        // Daemon media is never released here: other apps on the robot still use it.
        await robot.stop();
        await sim?.close();
      })()),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
