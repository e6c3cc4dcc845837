/**
 * What the recorder listens to, taken from the cockpit's own single sources: the state cache
 * (at the daemon stream's full rate, never a second stream), the frame hub's public JPEG
 * subscription (reduced to the recording rate), the frames dashboards are told (receipts, agent
 * log rows), the control routes and joystick frames (credential kind and outcome), and the
 * health picture (recorded when it changes). Nothing here waits on the disk.
 */
import type { Context } from 'koa';
import type { Health } from '../contract/health.ts';
import type { RobotState } from '../contract/state.ts';
import type { CredentialKind } from '../contract/ws.ts';
import { summarise } from '../diagnostics/health-history.ts';
import { isAppError } from '../errors.ts';
import { callerOf } from '../http/access-gate.ts';
import type { RouteSpec } from '../http/route-table.ts';
import type { CameraFrame } from '../camera/frame.ts';
import { compressedImageMessage, headPoseMessage } from './messages.ts';
import type { Recorder } from './recorder.ts';

export interface RecorderInputs {
  /** The state feed's per-sample listener and the state built from the one cache. */
  feed: { onSample(listener: () => void): () => void };
  state(): RobotState | undefined;
  health(): Health;
  camera: { subscribe(kind: 'jpeg', deliver: (frame: CameraFrame) => void): { close(): void } };
}

/** Fields of a request body that name credentials; never recorded even when a route reads them. */
const SECRET_FIELD = /token|secret|password|authorization|cookie|key|passkey/i;

export function withoutSecretFields(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => withoutSecretFields(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !SECRET_FIELD.test(k))
      .map(([k, v]) => [k, withoutSecretFields(v, depth + 1)]),
  );
}

type JoystickDoor = (
  frame: unknown,
  caller: { kind: CredentialKind | 'anonymous' },
) => { accepted: boolean; code?: string };

export interface RecorderTap {
  /** Every frame broadcast to dashboards passes here (receipts, agent log rows). */
  observe(frame: object): void;
  /** The control routes, each handler also recording its request and outcome. */
  wrapControlRoutes(routes: RouteSpec[]): RouteSpec[];
  /** The same control, its joystick frames from /ws also recorded with their caller and result. */
  watchJoystick<T extends { streamTarget: JoystickDoor }>(control: T): T;
}

export interface RecorderSources extends RecorderTap {
  attach(): void;
  /** Records the health picture when it differs from the last one recorded. */
  sampleHealth(): void;
  detach(): void;
}

/** What the recorder reads of an `apps` frame (server/contract/apps.ts, CurrentApp). */
interface AppSeen {
  name: string;
  state: string;
  error: string | null;
}

export function createRecorderSources(
  recorder: Recorder,
  inputs: RecorderInputs,
  clock: { now(): number },
): RecorderSources {
  const encoder = new TextEncoder();
  const frameGapMs = () => 1000 / Math.max(1, recorder.status().cameraFps);
  /** When the next frame is due: a schedule, not "200 ms since the last", keeps the rate at 5 fps from a 15 fps source. */
  let frameDue = -Infinity;
  let lastHealth = '';
  /** The app the last `apps` frame showed: its starts and stops are recorded as they are seen. */
  let lastApp: AppSeen | null = null;
  function noteApp(current: AppSeen | null): void {
    const was = lastApp;
    lastApp = current ? { name: current.name, state: current.state, error: current.error } : null;
    if (was && (!current || current.name !== was.name)) recorder.recordAppEvent({ app: was.name, phase: 'stop' });
    if (current && (!was || was.name !== current.name)) recorder.recordAppEvent({ app: current.name, phase: 'start', detail: current.state });
    else if (current && was && current.state !== was.state && (current.state === 'error' || current.state === 'done'))
      recorder.recordAppEvent({ app: current.name, phase: 'stop', detail: current.error ?? current.state });
  }
  let unsubscribeState: (() => void) | undefined;
  let cameraSubscription: { close(): void } | undefined;

  const onFrame = (frame: CameraFrame) => {
    const now = clock.now();
    if (!frame.jpeg || now < frameDue) return;
    const gap = frameGapMs();
    // The first frame, or one after a stall, restarts the schedule rather than catching up in a burst.
    frameDue = now - frameDue > 2 * gap ? now + gap : frameDue + gap;
    recorder.recordBytes(
      'camera',
      encoder.encode(JSON.stringify(compressedImageMessage(frame.jpeg, frame.capturedAt))),
      now,
    );
  };
  const followCamera = (on: boolean) => {
    const wanted = on && recorder.status().cameraFps > 0;
    if (wanted && !cameraSubscription) cameraSubscription = inputs.camera.subscribe('jpeg', onFrame);
    if (!wanted && cameraSubscription) {
      cameraSubscription.close();
      cameraSubscription = undefined;
    }
  };
  recorder.onCameraChange(followCamera);

  const recordControl = (entry: Record<string, unknown>) => recorder.record('control', entry);

  return {
    attach() {
      unsubscribeState = inputs.feed.onSample(() => {
        const state = inputs.state();
        if (!state) return;
        const now = clock.now();
        recorder.record('state', state, now);
        recorder.record('pose', headPoseMessage(state, now), now);
      });
      followCamera(recorder.cameraOn());
      this.sampleHealth();
    },
    sampleHealth() {
      const sample = summarise(inputs.health(), new Date(clock.now()));
      const change = { ok: sample.ok, presence: sample.presence, camera: sample.camera, problems: sample.problems };
      const key = JSON.stringify(change);
      if (key === lastHealth) return;
      lastHealth = key;
      recorder.record('health', { ...change, streamHz: sample.streamHz });
    },
    detach() {
      unsubscribeState?.();
      cameraSubscription?.close();
      cameraSubscription = undefined;
    },
    observe(frame) {
      const f = frame as { type?: unknown; action?: unknown; row?: { pending?: unknown } };
      if (f.type === 'event') {
        recorder.record('event', frame);
        if (f.action === 'stop') recorder.noteStop(clock.now());
      } else if (f.type === 'agent_log' && f.row && !f.row.pending) {
        recorder.record('agent', f.row);
      } else if (f.type === 'apps') {
        noteApp((frame as { current?: AppSeen | null }).current ?? null);
      }
    },
    wrapControlRoutes(routes) {
      return routes.map((route) => {
        const handler = route.handler;
        if (!handler) return route;
        const action = route.path.split('/').pop() ?? route.path;
        return {
          ...route,
          async handler(ctx: Context) {
            const credential = (callerOf(ctx) as ReturnType<typeof callerOf> | undefined)?.kind ?? 'anonymous';
            const base = { action, path: route.path, credential };
            try {
              await handler(ctx);
              const input = withoutSecretFields((ctx.state as { jsonBody?: unknown }).jsonBody);
              recordControl({ ...base, outcome: 'ok', status: ctx.status, ...(input ? { input } : {}) });
            } catch (error) {
              const code = isAppError(error) ? error.code : 'INTERNAL';
              const status = isAppError(error) ? error.status : 500;
              recordControl({ ...base, outcome: 'refused', code, status });
              throw error;
            }
          },
        };
      });
    },
    watchJoystick(control) {
      const streamTarget: JoystickDoor = (frame, caller) => {
        const result = control.streamTarget(frame, caller);
        const input = withoutSecretFields(frame);
        recordControl({
          action: 'joystick',
          path: '/ws',
          credential: caller.kind,
          outcome: result.accepted ? 'ok' : 'refused',
          ...(result.code ? { code: result.code } : {}),
          ...(input ? { input } : {}),
        });
        return result;
      };
      return { ...control, streamTarget };
    },
  };
}

/** The tap when no recorder runs (the wheeled server, tests of features alone): everything passes through. */
export const NO_RECORDER_TAP: RecorderTap = Object.freeze({
  observe: () => {},
  wrapControlRoutes: (routes: RouteSpec[]) => routes,
  watchJoystick: <T>(control: T) => control,
});
