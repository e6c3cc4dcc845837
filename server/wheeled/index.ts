/**
 * The wheeled server, the wheeled-robot cockpit: `startWheeledServer(options)` composes the
 * access model (passkeys shared with the desktop server when both run), the HS256 tokens, the
 * socket hub, the drive backend, the features and the app, then listens on ROBOT_B_PORT, over TLS with a certificate
 * from the local CA (leaf "server-b", renewed while running) unless ROBOT_B_TLS=0.
 * server/index.ts calls it for `--robot wheeled|both`; main/serve.ts calls runMintTokenCommand
 * for `mint-token`.
 */
import { join } from 'node:path';
import { createModelSettings, type ModelSettings } from '../agent/providers/model-settings.ts';
import type { WatchdogLimits } from '../agent/watchdog.ts';
import { createAccess, type Access } from '../auth/access.ts';
import { hostIdentity } from '../http/host-identity.ts';
import { createHttpsService, type HttpsService } from '../auth/https-service.ts';
import { systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { GateDeps } from '../http/access-gate.ts';
import { startBroadcast } from '../http/broadcast-ticker.ts';
import { createSocketHub } from '../http/cockpit-app.ts';
import { createHostAllowlist } from '../http/host-allowlist.ts';
import { httpListener, pushListenerShutdown, serveOn, startWithTeardown, type Teardown } from '../http/lifecycle.ts';
import { listen } from '../http/listeners.ts';
import { defaultShellRoot } from '../http/static-shell.ts';
import type { Log } from '../log.ts';
import type { SpeechEngine } from '../speech/engine.ts';
import { createWheeledApp, type WheeledApp } from './app.ts';
import {
  createTokenService,
  type MintServiceInput,
  type MintedServiceToken,
  type TokenService,
} from './auth/token-service.ts';
import type { WheeledBase } from './drive/base.ts';
import { createBackend, type BackendChoice } from './drive/backend-choice.ts';
import { createWheeledFeatures, type WheeledFeatures } from './features.ts';
import { STATE_PATH, stateFeed } from './state-socket.ts';

export { runMintTokenCommand, describeMintedToken, MINT_TOKEN_USAGE } from './mint-token-command.ts';
export type { MintedServiceToken, MintServiceInput } from './auth/token-service.ts';
export type { BackendChoice } from './drive/backend-choice.ts';

export type WheeledConfig = Pick<
  Config,
  | 'host'
  | 'bPort'
  | 'bTls'
  | 'dataDir'
  | 'wsHz'
  | 'rateLimit'
  | 'regToken'
  | 'sessionTtlSeconds'
  | 'loopbackReads'
  | 'rpId'
  | 'origin'
  | 'model'
>;

export interface WheeledServerOptions {
  config: WheeledConfig;
  log: Log;
  ownerToken: string;
  /** The desktop server's access model when both servers run in one process: one passkey and session store. */
  access?: Access;
  /** The desktop server's model settings when both run (one agent-model.json has one writer). */
  modelSettings?: ModelSettings;
  backend?: BackendChoice;
  /** Built dashboard folder; defaults to dist/renderer of this checkout. */
  shellRoot?: string;
  /** Offline voice engine; espeak-ng by default. */
  speech?: SpeechEngine;
  /** Shorter budgets for tests, and the drive controller's clock (frames' deadlines) for tests that hold time still. */
  tuning?: { chatWaitMs?: number; turnLimits?: WatchdogLimits; fetch?: typeof fetch; driveNow?: () => number };
}

export interface WheeledServer {
  /** The base URL on this host: https://localhost:<port>, or http://127.0.0.1:<port> without TLS. */
  readonly url: string;
  readonly port: number;
  readonly secure: boolean;
  /** The local CA's certificate (PEM) a client must trust, when TLS is on. */
  readonly caCertPem: string | undefined;
  readonly app: WheeledApp;
  readonly base: WheeledBase;
  readonly features: WheeledFeatures;
  readonly tokens: TokenService;
  readonly access: Access;
  /** Mints a service token for a script or a sibling robot (also `mint-token` and the console). */
  mintServiceToken(input: MintServiceInput): Promise<MintedServiceToken>;
  stop(): Promise<void>;
}

/** The address a phone on the LAN should open (the .local name, else a LAN IPv4 address). */
function lanBase(secure: boolean, port: () => number): () => string {
  const identity = hostIdentity();
  const host =
    identity.hostNames.find((n) => n.endsWith('.local')) ??
    identity.addresses.find((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a) && !a.startsWith('127.')) ??
    'localhost';
  return () => `${secure ? 'https' : 'http'}://${host}:${port()}`;
}

export function startWheeledServer(options: WheeledServerOptions): Promise<WheeledServer> {
  return startWithTeardown((teardown) => buildWheeledServer(options, teardown));
}

async function buildWheeledServer(options: WheeledServerOptions, teardown: Teardown): Promise<WheeledServer> {
  const { config } = options;
  const log = options.log.child('wheeled');
  const https = config.bTls
    ? await createHttpsService({ dataDir: config.dataDir, log: log.child('tls'), leaf: 'server-b' })
    : undefined;
  if (https) teardown.push(() => https.stop());
  const access =
    options.access ?? (await createAccess({ config, log: log.child('auth'), ownerToken: options.ownerToken }));
  const tokens = await createTokenService({
    dataDir: config.dataDir,
    log: log.child('tokens'),
    sessionLive: (key) => access.sessions.isLive(key),
  });
  const model = options.modelSettings ?? (await loadModelSettings(config, log, options.tuning?.fetch));
  let port = config.bPort;
  const gate = wheeledGate(access, tokens, options.ownerToken);
  const hosts = createHostAllowlist({ rpId: config.rpId, origin: config.origin });
  const hub = createSocketHub({ log, gate, hosts });
  const features = createWheeledFeatures({
    config,
    log,
    access,
    tokens,
    model,
    backend: createBackend(options.backend, log, options.tuning?.fetch),
    trust: { tls: () => https?.tls, lanUrl: lanBase(https !== undefined, () => port) },
    tls: https !== undefined,
    shellRoot: options.shellRoot ?? defaultShellRoot(),
    closeSession: (key) => hub.closeSession(key),
    ...(options.speech ? { speech: options.speech } : {}),
    ...(options.tuning ? { tuning: options.tuning } : {}),
  });
  const app = createWheeledApp({ log, gate, hub, routes: features.routes, sockets: features.sockets, hosts });
  teardown.push(
    access.sessions.onEnd((key) => {
      tokens.endSession(key);
      hub.closeSession(key);
    }),
  );
  await features.start();
  teardown.push(() => features.stop());
  teardown.push(
    startBroadcast({
      clock: systemClock,
      hz: config.wsHz,
      hub: app.hub,
      path: STATE_PATH,
      feeds: [stateFeed(() => features.base.state())],
      onError: (error) => log.warn('a /ws/state broadcast feed failed', { error: String(error) }),
    }),
  );
  const httpLog = log.child('http');
  const server = https ? serveOn(https.server(app.koa.callback()), app, httpLog) : httpListener(app, httpLog);
  port = await listen(server, config.bPort, config.host);
  pushListenerShutdown(teardown, app, [server]);
  log.info('wheeled server listening', { port, tls: https !== undefined });
  return handle({ app, features, tokens, access, https, port, teardown });
}

/** The shared gate with the wheeled server's credentials: the JWT check added, no loopback trust (docs/contract.md, "Authentication"). */
function wheeledGate(access: Access, tokens: TokenService, ownerToken: string): GateDeps {
  return {
    ...access.gate,
    credentials: {
      ownerToken,
      validateSession: access.gate.credentials.validateSession,
      validateBearer: (t) => tokens.verify(t),
    },
    loopbackReads: false,
  };
}

async function loadModelSettings(
  config: WheeledConfig,
  log: Log,
  fetchImpl: typeof fetch | undefined,
): Promise<ModelSettings> {
  const settings = createModelSettings({
    file: join(config.dataDir, 'agent-model.json'),
    log: log.child('model'),
    env: config.model,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  await settings.load();
  return settings;
}

function handle(parts: {
  app: WheeledApp;
  features: WheeledFeatures;
  tokens: TokenService;
  access: Access;
  https: HttpsService | undefined;
  port: number;
  teardown: Teardown;
}): WheeledServer {
  const secure = parts.https !== undefined;
  return {
    url: secure ? `https://localhost:${parts.port}` : `http://127.0.0.1:${parts.port}`,
    port: parts.port,
    secure,
    caCertPem: parts.https?.tls.caCertPem,
    app: parts.app,
    base: parts.features.base,
    features: parts.features,
    tokens: parts.tokens,
    access: parts.access,
    mintServiceToken: (input) => parts.tokens.mintServiceToken(input),
    stop: () => parts.teardown.run(),
  };
}
