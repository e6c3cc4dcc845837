/**
 * The public start/stop API of the cockpit. `npm run serve`, `npm start` and the Electron main
 * process all call startCockpit, so the same server code runs under each.
 */
import type { Server } from 'node:http';
import { createAccess } from './auth/access.ts';
import { systemClock, type TimerClock } from './clock.ts';
import { createControlLatency } from './diagnostics/control-latency.ts';
import { createCamera } from './camera/index.ts';
import { startHealthHistory } from './diagnostics/health-history.ts';
import { createLogRing, type LogRing } from './diagnostics/log-ring.ts';
import { diagnosticsRoutes } from './desktop/routes/diagnostics-routes.ts';
import { createHttpsService, type HttpsService } from './auth/https-service.ts';
import type { Config } from './config.ts';
import { createDesktopApp, type DesktopApp } from './desktop/app.ts';
import { cockpitHandle, type Cockpit, type Listeners } from './desktop/cockpit-handle.ts';
import { discoveryRoutes } from './desktop/routes/discovery-routes.ts';
import { createDiscovery, type DiscoveryOptions } from './discovery/index.ts';
import { createDesktopFeatures, type FeatureOptions } from './desktop/features.ts';
import { createRobotCore } from './desktop/robot-core.ts';
import type { HealthSampleFrame } from './contract/health.ts';
import { recordingRoutes } from './desktop/routes/recording-routes.ts';
import { createTracking, trackingEngine } from './perception/tracking.ts';
import { createBlackBox } from './recorder/index.ts';
import { createSocketHub } from './http/cockpit-app.ts';
import { createHostAllowlist } from './http/host-allowlist.ts';
import { httpListener, pushListenerShutdown, serveOn, startWithTeardown, type Teardown } from './http/lifecycle.ts';
import { listen } from './http/listeners.ts';
import { defaultShellRoot } from './http/static-shell.ts';
import type { Log } from './log.ts';
import { startSimDaemon } from './sim/index.ts';

export type { Config, Flags } from './config.ts';
export { loadConfig, ConfigError, CONFIG_KEYS, defaultDataDir } from './config.ts';
export { createLog, redact, stderrSink, type Log } from './log.ts';
export { createLogRing, teeSink, type LogRing } from './diagnostics/log-ring.ts';
export { ensureOwnerToken, ownerTokenWhere } from './auth/owner-token.ts';
export { writeFileAtomic } from './store/atomic-write.ts';
export { COCKPIT_VERSION } from './version.ts';
export {
  startWheeledServer,
  runMintTokenCommand,
  describeMintedToken,
  MINT_TOKEN_USAGE,
  type WheeledServer,
  type BackendChoice,
} from './wheeled/index.ts';
export type { PlatformPort } from './desktop/platform-port.ts';
export type { PlatformEnrolInput, PlatformNotice, PlatformSessionEnrolInput } from './contract/platform-enrol.ts';
export type { PlatformStatus, PlatformStatusView } from './contract/platform.ts';
export type { FleetTurnInput } from './agent/fleet-chat.ts';
export type { DesktopFeatures } from './desktop/features.ts';
export type { Cockpit } from './desktop/cockpit-handle.ts';
export type { Recorder } from './recorder/index.ts';
export type { KeptRecording } from './contract/recordings.ts';
export type { Health } from './contract/health.ts';
export type { ServiceState } from './contract/state.ts';
export type { CredentialKind } from './contract/ws.ts';
export { messageOf } from './errors.ts';
export { LOCAL_WINDOW_CREDENTIAL } from './http/caller.ts';
export { PEER_HEALTH_SOURCES } from './http/security-headers.ts';

export interface CockpitOptions {
  config: Config;
  log: Log;
  ownerToken: string;
  /** Built dashboard folder; defaults to dist/renderer of this checkout. */
  shellRoot?: string;
  /** Where the log's recent records are kept for the dashboard and the diagnostics bundle. */
  logRing?: LogRing;
  /** The platform client's port, chat stream and use_device, wired by main/compose.ts. */
  platform?: FeatureOptions['platform'];
  /** Web Push tuning for tests (thresholds, a TLS agent trusting a fake push service). */
  push?: FeatureOptions['push'];
  /** The cockpit's clock: the access model (sessions, rate limit, brute-force throttle) and the black box recorder (its camera sampling ticks on it); tests move it by hand. */
  clock?: TimerClock;
  /** mDNS socket and cadence, for the network-namespace test. */
  lan?: DiscoveryOptions['lan'];
}

export function startCockpit(options: CockpitOptions): Promise<Cockpit> {
  return startWithTeardown((teardown) => buildCockpit(options, teardown));
}

async function buildCockpit(options: CockpitOptions, teardown: Teardown): Promise<Cockpit> {
  const { config, log } = options;
  const sim = config.daemonUrl === 'sim' ? await startSimDaemon({ port: 0, log: log.child('sim') }) : undefined;
  if (sim) teardown.push(() => sim.close());
  const daemonUrl = sim ? sim.url : config.daemonUrl;
  const https =
    config.httpsPort > 0 ? await createHttpsService({ dataDir: config.dataDir, log: log.child('tls') }) : undefined;
  if (https) teardown.push(() => https.stop());
  const discovery = createDiscovery({
    config,
    log: log.child('discovery'),
    fingerprint: () => https?.tls.caFingerprint ?? null,
    httpsUrl: () => https?.secureBaseUrl(config.httpsPort),
    ...(options.lan ? { lan: options.lan } : {}),
  });
  await discovery.load();
  teardown.push(() => discovery.stop());
  const camera = createCamera({
    setting: config.camera,
    daemonUrl,
    log,
    ...(sim?.cameraSignallingUrl ? { simSignallingUrl: sim.cameraSignallingUrl } : {}),
  });
  teardown.push(() => camera.stop());
  const access = await createAccess({
    config,
    log: log.child('auth'),
    ownerToken: options.ownerToken,
    pairingBaseUrl: () => https?.secureBaseUrl(config.httpsPort),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const hosts = createHostAllowlist({
    rpId: config.rpId,
    origin: config.origin,
    extraNames: () => discovery.localNames(),
  });
  // Before the features, so each is handed the dashboards' broadcast when it is built; the app
  // gives it its socket routes (server/http/cockpit-app.ts).
  const hub = createSocketHub({ log, gate: access.gate, hosts });
  // After the hub, so the face tracker built with the core is handed the dashboards' broadcast.
  const robot = createRobotCore({
    daemonUrl,
    simulated: sim !== undefined,
    dataDir: config.dataDir,
    log: log.child('robot'),
    camera: () => camera.health(),
    identity: () => discovery.identity(),
    tracking: (link) =>
      createTracking({
        daemon: link.daemon,
        daemonState: () => link.feed.snapshot().status?.state,
        engine: (available) => trackingEngine(link.simulated, link.feed.snapshot().status?.version ?? null, available),
        autostart: config.trackAutostart,
        log: log.child('tracking'),
        services: link.services,
        broadcast: (frame) => hub.broadcast('/ws', frame),
      }),
  });
  teardown.push(() => robot.stop());
  const blackBox = createBlackBox({
    dataDir: config.dataDir,
    settings: config.recorder,
    inputs: { feed: robot.feed, state: () => robot.state(), health: () => robot.health(), camera },
    clock: options.clock ?? systemClock,
    log: log.child('recorder'),
    secrets: () => secretsOf(config, options.ownerToken),
  });
  const features = createDesktopFeatures({
    robot,
    hub: { broadcast: (frame) => hub.broadcast('/ws', frame), viewers: () => hub.clients('/ws').size },
    camera,
    log,
    config,
    platform: options.platform,
    push: options.push,
    recorder: blackBox.tap,
    endpointSecret: options.ownerToken,
  });
  const controlLatency = createControlLatency();
  const history = startHealthHistory({
    health: () => robot.health(),
    control: controlLatency,
    clock: options.clock ?? systemClock,
  });
  teardown.push(() => history.stop());
  const diagnostics = diagnosticsRoutes({
    config,
    robot,
    logs: options.logRing ?? createLogRing(),
    history,
    extras: () => ({
      apps: { ...features.apps.overview(), jobs: features.apps.jobs(), logs: features.appLogs.recent() },
      selftest: features.selftest.last(),
    }),
  });
  const app = createDesktopApp({
    config,
    log,
    robot,
    gate: access.gate,
    hub,
    routes: [
      ...access.routes,
      ...features.routes,
      ...diagnostics,
      ...recordingRoutes(blackBox.recorder),
      ...discoveryRoutes(discovery),
    ],
    onSocket: features.onSocket,
    onGateRefused: (route, ctx, error) => blackBox.tap.refusedAtGate(route, ctx, error),
    hosts,
    shellRoot: options.shellRoot ?? defaultShellRoot(),
    onControlLatency: (ms) => controlLatency.record(ms),
    ...(https ? { shellExtras: https.shellExtras({ httpPort: config.httpPort, httpsPort: config.httpsPort }) } : {}),
  });
  access.sessions.onEnd((key) => hub.closeSession(key));
  // Straight to the hub, not through the features' broadcast: a sample is no receipt to record.
  teardown.push(
    history.onSample((sample) => hub.broadcast('/ws', { type: 'health_sample', sample } satisfies HealthSampleFrame)),
  );
  robot.start();
  teardown.push(() => features.stop());
  await features.start();
  camera.start();
  await blackBox.start();
  teardown.push(() => blackBox.stop());
  const stopBroadcast = app.startBroadcast();
  teardown.push(stopBroadcast);
  const servers = await startListeners(app, config, https, log.child('http'));
  discovery.start({ httpPort: servers.port, httpsPort: servers.httpsPort });
  pushListenerShutdown(teardown, app, servers.all);
  // Open MJPEG streams end with the camera, before the listeners wait out their drain.
  teardown.push(() => camera.stop());
  const remoteUrl = () => https?.secureBaseUrl(config.httpsPort);
  return cockpitHandle({
    app,
    robot,
    access,
    features,
    recorder: blackBox.recorder,
    discovery,
    sim,
    daemonUrl,
    https,
    servers,
    teardown,
    remoteUrl,
  });
}

async function startListeners(
  app: DesktopApp,
  config: Config,
  https: HttpsService | undefined,
  log: Log,
): Promise<Listeners> {
  const http = httpListener(app, log);
  const all: Server[] = [http];
  const port = await listen(http, config.httpPort, config.host);
  let httpsPort: number | undefined;
  if (https) {
    const secure = serveOn(https.server(app.koa.callback()), app, log);
    all.push(secure);
    httpsPort = await listen(secure, config.httpsPort, config.host);
  }
  return { port, httpsPort, all };
}

/** Every credential the cockpit holds: the recorder never writes one (server/recorder/scrub.ts). */
function secretsOf(config: Config, ownerToken: string): string[] {
  const all = [
    ownerToken,
    config.token,
    config.regToken,
    config.model.key,
    config.platform?.token,
    config.platformSessionToken,
  ];
  return all.filter((s): s is string => typeof s === 'string');
}
