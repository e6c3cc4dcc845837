/**
 * /sim/*: controls of the simulated world and fault injection. Not part of the real daemon;
 * JSON in and out, errors as 400 `{"error": "..."}`, and every POST answers the new status.
 * These routes ignore latency and hang, and are not counted in `httpRequests`.
 */
import type { SimContext } from './context.ts';
import { DetailError, route, type Reply, type Route } from './http-kit.ts';
import { fileClip, spokenClip } from './microphone-clips.ts';
import { simFaultRoutes } from './routes-sim-faults.ts';
import { body, bool, DEG, num, SimInputError, simStatus } from './sim-input.ts';

function backendAction(ctx: SimContext, action: unknown): void {
  const life = ctx.lifecycle;
  // Fault injection: the backend dies on the spot (no sleep sequence), comes back without waking.
  const work =
    action === 'stop'
      ? () => life.stop(false, true)
      : action === 'start'
        ? () => life.start(false)
        : action === 'restart'
          ? () => life.restart(true)
          : null;
  if (!work) throw new SimInputError('action must be "stop", "start" or "restart"');
  const command = action === 'stop' ? 'daemon-stop' : action === 'start' ? 'daemon-start' : 'daemon-restart';
  if (life.runJob(command, work) === undefined) throw new DetailError(409, 'a daemon job is in flight');
}

/** `{"text"}` spoken by espeak-ng, or `{"file"}` decoded by ffmpeg: what the robot is made to hear. */
async function microphoneClip(b: Record<string, unknown>): Promise<Buffer> {
  const { text, file } = b;
  const ok = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= 2000;
  if (ok(text) === ok(file))
    throw new SimInputError('give either text or file (a non-empty string up to 2000 characters)');
  const clip = ok(text) ? spokenClip(text) : fileClip(file as string);
  return clip.catch((error: unknown) => {
    throw new SimInputError(`nothing to hear: ${(error as Error).message}`);
  });
}

export function simRoutes(ctx: SimContext): Route[] {
  const post = (path: string, apply: (b: Record<string, unknown>) => void): Route =>
    route('POST', path, (req): Reply => {
      apply(body(req));
      return { json: simStatus(ctx) };
    });
  return [
    route('GET', '/sim/status', () => ({ json: simStatus(ctx) })),
    post('/sim/backend', (b) => backendAction(ctx, b.action)),
    post('/sim/latency', (b) => {
      ctx.faults.latencyMs = num(b, 'ms', 0, 60_000);
    }),
    post('/sim/hang', (b) => {
      ctx.faults.hang = bool(b, 'on');
    }),
    post('/sim/face', (b) => {
      if (b.present === false) ctx.world.tracking.face = null;
      else ctx.world.tracking.face = { yaw: num(b, 'yaw', -180, 180) * DEG, pitch: num(b, 'pitch', -90, 90) * DEG };
    }),
    post('/sim/speaker', (b) => {
      const speaker = ctx.doa.speaker;
      if (b.bearing !== undefined) speaker.bearing = num(b, 'bearing', -180, 180);
      if (b.speaking !== undefined) speaker.speaking = bool(b, 'speaking');
    }),
    post('/sim/realistic', (b) => {
      ctx.world.realistic = bool(b, 'on');
    }),
    post('/sim/camera', (b) => {
      ctx.camera.on = bool(b, 'on');
      ctx.camera.sync();
    }),
    // A Wireless build: wireless_version in the status, and the log stream WS /logs/ws/daemon.
    post('/sim/wireless', (b) => {
      ctx.wireless = bool(b, 'on');
    }),
    post('/sim/app-lock', (b) => {
      const state = b.state;
      if (state !== 'free' && state !== 'local_app' && state !== 'remote_session')
        throw new SimInputError('state must be "free", "local_app" or "remote_session"');
      const holder = state === 'free' ? null : state === 'remote_session' ? 'remote' : b.holder;
      if (holder !== null && (typeof holder !== 'string' || holder === '' || holder.length > 64))
        throw new SimInputError('holder must be the app name (1-64 characters) for local_app');
      ctx.appLock = { state, holder_name: holder };
    }),
    route('POST', '/sim/microphone', async (req): Promise<Reply> => {
      ctx.camera.hear(await microphoneClip(body(req)));
      return { json: simStatus(ctx) };
    }),
    ...simFaultRoutes(ctx, post),
  ];
}
