/**
 * The wheeled server's features composed over one drive backend: the base (presets, gate, trail), its
 * camera behind the shared frame hub, the agent turns, the voice, and every route and socket of
 * the table. The hub is built before them (docs/architecture.md, "Build order"), so ending a
 * revoked token's sockets is an input like any other.
 */
import type { Access } from '../auth/access.ts';
import { createFrameHub, type FrameHub } from '../camera/frame-hub.ts';
import { cameraRoutes } from '../camera/camera-routes.ts';
import type { ModelSettings } from '../agent/providers/model-settings.ts';
import type { WatchdogLimits } from '../agent/watchdog.ts';
import type { RouteSpec } from '../http/route-table.ts';
import { createShellHandler } from '../http/static-shell.ts';
import type { WsHandler } from '../http/ws-hub.ts';
import type { Log } from '../log.ts';
import type { SpeechEngine } from '../speech/engine.ts';
import { createEspeakEngine } from '../speech/espeak.ts';
import type { TokenService } from './auth/token-service.ts';
import { createBaseTools } from './chat/base-tools.ts';
import { chatSocketHandler } from './chat/chat-socket.ts';
import { createWheeledAgent, type WheeledAgent } from './chat/wheeled-agent.ts';
import { createWheeledBase, type WheeledBase } from './drive/base.ts';
import { createDriveSettings } from './drive/drive-settings.ts';
import type { DriveBackend } from './drive/types.ts';
import { chatRoutes } from './routes/chat-routes.ts';
import { driveRoutes } from './routes/drive-routes.ts';
import { healthRoute } from './routes/health-route.ts';
import { sessionRoutes } from './routes/session-routes.ts';
import { tokenRoutes } from './routes/token-routes.ts';
import { trustRoutes, type TrustDeps } from './routes/trust-routes.ts';
import { STATE_PATH, stateSocketHandler } from './state-socket.ts';
import { createVoiceSettings, type VoiceSettings } from './voice/voice-settings.ts';
import { voiceSocketHandler } from './voice/voice-socket.ts';

export interface WheeledFeatureOptions {
  config: { dataDir: string; rpId: string | undefined; origin: string | undefined; sessionTtlSeconds: number };
  log: Log;
  access: Access;
  tokens: TokenService;
  model: ModelSettings;
  backend: DriveBackend;
  trust: TrustDeps;
  tls: boolean;
  shellRoot: string;
  /** Ends every socket of a session or service token (the hub's closeSession): a revoked token's too. */
  closeSession: (sessionKey: string) => void;
  speech?: SpeechEngine;
  tuning?: { chatWaitMs?: number; turnLimits?: WatchdogLimits; fetch?: typeof fetch; driveNow?: () => number };
}

export interface WheeledFeatures {
  readonly base: WheeledBase;
  readonly camera: FrameHub;
  readonly agent: WheeledAgent;
  readonly voice: VoiceSettings;
  readonly routes: RouteSpec[];
  readonly sockets: Record<string, WsHandler>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWheeledFeatures(o: WheeledFeatureOptions): WheeledFeatures {
  const log = o.log;
  const base = createWheeledBase({
    backend: o.backend,
    settings: createDriveSettings({ dataDir: o.config.dataDir, log: log.child('drive') }),
    log: log.child('drive'),
    ...(o.tuning?.driveNow ? { now: o.tuning.driveNow } : {}),
  });
  const camera = createFrameHub({ source: o.backend.camera(), log: log.child('camera'), idleStopMs: 10_000 });
  const agent = createWheeledAgent({
    settings: o.model,
    tools: () => createBaseTools({ controller: base.controller, state: () => base.state() }),
    log: log.child('agent'),
    ...(o.tuning?.chatWaitMs ? { chatWaitMs: o.tuning.chatWaitMs } : {}),
    ...(o.tuning?.turnLimits ? { limits: o.tuning.turnLimits } : {}),
  });
  const voice = createVoiceSettings({ dataDir: o.config.dataDir, log: log.child('voice') });
  const shell = createShellHandler({ root: o.shellRoot, robotKind: 'wheeled' });
  const routes: RouteSpec[] = [
    healthRoute({ base, camera, modelConfigured: () => o.model.configured(), voice, tls: o.tls }),
    ...sessionRoutes({ access: o.access, tokens: o.tokens, config: o.config }),
    ...driveRoutes(base),
    ...cameraRoutes(camera),
    ...chatRoutes({ agent, model: o.model, voice }),
    ...tokenRoutes({ tokens: o.tokens, onRevoked: (key) => o.closeSession(key) }),
    ...trustRoutes(o.trust),
    {
      method: 'WS',
      path: '/ws/chat',
      access: 'key',
      queryToken: true,
      summary: 'chat turns streamed as token, tool, reasoning, done/error; drive frames; ping',
    },
    {
      method: 'WS',
      path: '/ws/voice',
      access: 'key',
      queryToken: true,
      summary: 'PCM16 in; voice_meta, then base64 audio frames out; {type: "stop"} ends it',
    },
    {
      method: 'WS',
      path: STATE_PATH,
      access: 'key',
      queryToken: true,
      summary: 'state frames of the base at ROBOT_WS_HZ while it changes, 1 Hz otherwise',
    },
    { method: 'GET', path: '/', access: 'public', summary: 'dashboard shell (no-cache)', handler: shell },
    {
      method: 'GET',
      path: '/{*path}',
      access: 'public',
      summary: 'static assets, single-page fallback',
      handler: shell,
    },
  ];
  const sockets: Record<string, WsHandler> = {
    '/ws/chat': chatSocketHandler({ agent, controller: base.controller, log: log.child('chat') }),
    '/ws/voice': voiceSocketHandler({
      settings: voice,
      agent,
      engine: o.speech ?? createEspeakEngine(),
      log: log.child('voice'),
      ...(o.tuning?.fetch ? { fetch: o.tuning.fetch } : {}),
    }),
    [STATE_PATH]: stateSocketHandler((options) => base.state(options)),
  };
  return {
    base,
    camera,
    agent,
    voice,
    routes,
    sockets,
    async start() {
      await voice.load();
      await base.start();
      camera.start();
    },
    async stop() {
      agent.abortAll(new Error('the cockpit is shutting down'));
      await camera.stop();
      await base.stop();
    },
  };
}
