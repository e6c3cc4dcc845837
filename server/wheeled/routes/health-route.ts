/**
 * GET /api/health of the wheeled server, public (docs/contract.md: health is on the short public list).
 * `robot: "wheeled"` is what the dashboard reads to mount its wheeled-robot variant. Nothing
 * here is secret: presence, problems, and whether a model and a transcription are configured.
 */
import type { WheeledHealth } from '../../contract/wheeled.ts';
import type { FrameHub } from '../../camera/frame-hub.ts';
import type { RouteSpec } from '../../http/route-table.ts';
import { COCKPIT_VERSION } from '../../version.ts';
import type { WheeledBase } from '../drive/base.ts';
import type { VoiceSettings } from '../voice/voice-settings.ts';

export interface HealthDeps {
  base: Pick<WheeledBase, 'state'>;
  camera: Pick<FrameHub, 'health' | 'configured'>;
  modelConfigured: () => boolean;
  voice: Pick<VoiceSettings, 'current'>;
  tls: boolean;
}

export function health(deps: HealthDeps): WheeledHealth {
  const { backend } = deps.base.state();
  const voice = deps.voice.current();
  const problems: Record<string, string> = {};
  if (backend.presence !== 'connected')
    problems[`base:${backend.presence}`] = backend.problem ?? `the base is ${backend.presence}`;
  if (!deps.modelConfigured())
    problems['model:none'] = 'no model configured: chat and voice answer that they cannot reply';
  return {
    ok: backend.presence === 'connected',
    robot: 'wheeled',
    version: COCKPIT_VERSION,
    tls: deps.tls,
    backend,
    camera: { configured: deps.camera.configured, ...deps.camera.health() },
    model: { configured: deps.modelConfigured() },
    voice: { provider: voice.provider, transcription: voice.provider === 'realtime' || voice.transcription !== null },
    problems,
  };
}

export function healthRoute(deps: HealthDeps): RouteSpec {
  return {
    method: 'GET',
    path: '/api/health',
    access: 'public',
    summary: 'health: {ok, robot: "wheeled", tls, backend, camera, model, voice, problems}',
    handler(ctx) {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = health(deps);
    },
  };
}
