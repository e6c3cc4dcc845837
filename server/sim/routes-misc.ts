/** Volume, kinematics, camera specs and the fixed routes (docs/daemon.md, "Conventions"); apps: routes-apps.ts. */
import type { SimContext } from './context.ts';
import { int } from './fields.ts';
import { CAMERA_SPECS_LITE, KINEMATICS_INFO, platformName, SOUND_DEVICE } from './fixtures.ts';
import { jsonBody, route, type Route, type SimRequest } from './http-kit.ts';
import { parseRequired } from './models.ts';

function volumeOf(req: SimRequest): number {
  return parseRequired(jsonBody(req), 'volume', (v, loc, errors) => int(v, loc, errors, { ge: 0, le: 100 }));
}

function volumeRoutes(ctx: SimContext): Route[] {
  const answer = (volume: number): { json: unknown } => ({
    json: { volume, platform: platformName(), device: SOUND_DEVICE },
  });
  return [
    route('GET', '/api/volume/current', () => answer(ctx.volume.speaker)),
    route('POST', '/api/volume/set', (req) => {
      ctx.volume.speaker = volumeOf(req);
      ctx.counters.volumeSets += 1;
      // Every set plays a test sound, if the backend is up (docs/daemon.md, "Volume"): never bind a slider to it.
      if (ctx.lifecycle.ready) ctx.playSound('impatient1.wav');
      return answer(ctx.volume.speaker);
    }),
    route(
      'POST',
      '/api/volume/test-sound',
      () => {
        ctx.playSound('impatient1.wav');
        return { json: { status: 'ok', message: 'Test sound played' } };
      },
      { backend: true },
    ),
    route('GET', '/api/volume/microphone/current', () => answer(ctx.volume.microphone)),
    route('POST', '/api/volume/microphone/set', (req) => {
      ctx.volume.microphone = volumeOf(req);
      return answer(ctx.volume.microphone);
    }),
  ];
}

const ROOT_PAGE =
  '<!doctype html><html><head><title>Reachy Mini</title></head><body><h1>Web Dashboard Deprecated</h1></body></html>';

export function miscRoutes(ctx: SimContext): Route[] {
  return [
    ...volumeRoutes(ctx),
    route('GET', '/api/kinematics/info', () => ({ json: KINEMATICS_INFO }), { backend: true }),
    route('GET', '/api/camera/specs', () => ({ json: CAMERA_SPECS_LITE })),
    route('POST', '/health-check', () => ({ json: { status: 'ok' } })),
    route('GET', '/', () => ({ status: 200, text: ROOT_PAGE, contentType: 'text/html; charset=utf-8' })),
  ];
}
