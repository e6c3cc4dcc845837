/**
 * The one composition of a running console, shared by `npm run serve`, `npm start` and the
 * Electron main process: config, the platform client and the cockpit, wired both ways
 * (docs/architecture.md, "Folders and the direction of imports": only main/ sees both). The client runs relayed `invoke` envelopes on the
 * cockpit's agent and shows `notify` envelopes on its dashboards; the cockpit gets the client as
 * its platform port (console routes, /ws status frames), as the 'platform' model provider's
 * chat stream, and use_device for dashboard turns; firmware bundles are installed by the console's
 * updater (firmware-installer.ts) once the cockpit says the robot is idle. Disconnecting or
 * forgetting the platform stops only the client's loops: the cockpit and local control never
 * depend on it.
 */
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import {
  createFileSecretStore,
  createPlatformClient,
  privateLanOrigin,
  type PlatformClient,
  type PlatformNotice,
  type PlatformTiming,
  type Scheduler,
} from '../platform-client/index.ts';
import {
  COCKPIT_VERSION,
  createLog,
  createLogRing,
  startCockpit,
  stderrSink,
  teeSink,
  type Cockpit,
  type Config,
  type Flags,
  type Log,
} from '../server/index.ts';
import { boot } from './boot.ts';
import { createConsoleUpdater } from './firmware-installer.ts';

export interface ComposeOptions {
  flags: Flags;
  /** The environment; boot() reads process.env when omitted. */
  env?: Record<string, string | undefined>;
  /** The log for the loaded config; JSON lines at ROBOT_LOG_LEVEL by default. */
  log?: (config: Config) => Log;
  /** Also raise notify envelopes natively (the Electron shell's notifications). */
  onNotify?: (notification: PlatformNotice) => void;
  /** Shorter cadences, for tests. */
  platformTiming?: PlatformTiming;
  /** The platform client's clock and timers; the real ones when omitted (tests count its pending timers). */
  platformScheduler?: Scheduler;
  /** Relaunches the app after a firmware install (the desktop shell); headless hosts leave it to their service manager. */
  restart?: () => void;
  /** The running AppImage ($APPIMAGE); read from the environment when omitted. */
  appImage?: string;
}

export interface ComposedCockpit {
  readonly config: Config;
  readonly ownerToken: string;
  readonly cockpit: Cockpit;
  readonly platform: PlatformClient;
  /** Stops the platform loops and the cockpit; running fleet turns are aborted and still answered. */
  stop(): Promise<void>;
}

/** The envelope types this robot runs (docs/platform.md, "Devices": invoke and notify). */
const ENVELOPE_VERBS = ['invoke', 'notify'] as const;

/**
 * The cockpit as the LAN sees it, for the heartbeat's lanUrl: its bound address, or for a
 * wildcard bind the first private IPv4 of the host. The worker keeps only http on a private
 * IPv4 (docs/platform.md, "Devices"), so anything else is null.
 */
export function cockpitLanUrl(host: string, port: number, interfaces = networkInterfaces()): string | null {
  const wildcard = host === '0.0.0.0' || host === '::';
  const addresses = wildcard
    ? Object.values(interfaces)
        .flatMap((list) => list ?? [])
        .filter((a) => a.family === 'IPv4' && !a.internal)
        .map((a) => a.address)
    : [host];
  for (const address of addresses) {
    const origin = privateLanOrigin(`http://${address}:${port}`);
    if (origin) return origin;
  }
  return null;
}

/** Boots the config, starts the cockpit with the platform client wired in, then the client. */
export async function composeCockpit(options: ComposeOptions): Promise<ComposedCockpit> {
  const { config, ownerToken } = await boot(options.flags, options.env);
  const logRing = createLogRing();
  const log = options.log?.(config) ?? createLog({ level: config.logLevel, scope: 'cockpit', sink: teeSink(logRing, stderrSink) });
  // Bound late: the client exists before the cockpit it feeds, and does nothing before start().
  const late: { cockpit?: Cockpit } = {};
  const updater = createConsoleUpdater({
    dataDir: config.dataDir,
    hook: config.firmwareHook,
    appImage: options.appImage ?? (options.env ?? process.env)['APPIMAGE'],
    packageVersion: COCKPIT_VERSION,
    busyReason: () => (late.cockpit ? late.cockpit.busyReason() : 'the cockpit is not running'),
    ...(options.restart ? { restart: options.restart } : {}),
    log: log.child('firmware'),
  });
  await updater.load();
  const platform = createPlatformClient({
    secrets: createFileSecretStore({ dir: join(config.dataDir, 'platform') }),
    dataDir: config.dataDir,
    log: log.child('platform'),
    envIdentity: config.platform ?? null,
    envOwnerSession: config.platformSessionToken ?? null,
    firmware: { updater },
    // Only verbs actually implemented (docs/platform.md, "Errors"): the envelopes, then what a fleet turn can do.
    capabilities: () => [...ENVELOPE_VERBS, ...(late.cockpit?.fleetToolNames() ?? [])],
    lanUrl: () => (late.cockpit ? cockpitLanUrl(config.host, late.cockpit.port) : null),
    runFleetTurn: (turn) =>
      late.cockpit ? late.cockpit.runFleetTurn(turn) : Promise.reject(new Error('the cockpit is not running')),
    notify(notification) {
      late.cockpit?.notify(notification);
      options.onNotify?.(notification);
    },
    ...(options.platformTiming ? { timing: options.platformTiming } : {}),
    ...(options.platformScheduler ? { scheduler: options.platformScheduler } : {}),
  });
  const running = await startCockpit({
    config,
    log,
    ownerToken,
    logRing,
    platform: {
      port: platform,
      chat: platform,
      // use_device reaches the owner's other devices; it means nothing before enrolment.
      fleetTools: () => (platform.status().enrolled ? [platform.useDeviceTool] : []),
      // What the voice persona understood is kept on the owner's platform while the link is on.
      heard: (heard) => platform.reportTranscript(heard),
    },
  });
  late.cockpit = running;
  const started = await platform.start();
  if (!started.ok) {
    await running.stop();
    throw new Error(started.failure.message);
  }
  let stopping: Promise<void> | undefined;
  return {
    config,
    ownerToken,
    cockpit: running,
    platform,
    // The loops stop first (no new claims); stopping the cockpit aborts running fleet turns, whose
    // error replies let the client's drain finish (every claimed envelope is answered, docs/platform.md, "Devices").
    stop: () =>
      (stopping ??= (async () => {
        const draining = platform.disconnect();
        await running.stop();
        await draining;
      })()),
  };
}
