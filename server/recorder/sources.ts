/**
 * What the recorder listens to, taken from the cockpit's own single sources: the state cache
 * (every sample of the daemon's one stream, whatever its rate), the frame hub's public JPEG
 * subscription (sampled on the clock at the recording rate, camera-sampler.ts), the frames
 * dashboards are told (receipts, agent log rows), the control routes and joystick frames
 * (credential kind and outcome), and the health picture (recorded when it changes). Nothing here waits on the disk.
 */
import type { Context } from 'koa';
import type { Health } from '../contract/health.ts';
import type { RobotState } from '../contract/state.ts';
import type { CredentialKind } from '../contract/ws.ts';
import { summarise } from '../diagnostics/health-history.ts';
import type { RouteSpec } from '../http/route-table.ts';
import type { CameraFrame } from '../camera/frame.ts';
import type { TimerClock } from '../clock.ts';
import { createCameraSampler } from './camera-sampler.ts';
import { createControlTap, type JoystickDoor } from './control-tap.ts';
import { compressedImageMessage, headPoseMessage } from './messages.ts';
import type { Recorder } from './recorder.ts';

export interface RecorderInputs {
  /** The state feed's per-sample listener and the state built from the one cache. */
  feed: { onSample(listener: () => void): () => void };
  state(): RobotState | undefined;
  health(): Health;
  camera: { subscribe(kind: 'jpeg', deliver: (frame: CameraFrame) => void): { close(): void } };
}

export interface RecorderTap {
  /** Every frame broadcast to dashboards passes here (receipts, agent log rows). */
  observe(frame: object): void;
  /** The control routes, each handler also recording its request and outcome. */
  wrapControlRoutes(routes: RouteSpec[]): RouteSpec[];
  /** A request to one of those routes that the access gate refused before its handler. */
  refusedAtGate(route: Pick<RouteSpec, 'method' | 'path'>, ctx: Context, error: unknown): void;
  /** The same control, its joystick frames from /ws also recorded with their caller and result. */
  watchJoystick<T extends { streamTarget: JoystickDoor }>(control: T): T;
  /** A joystick frame the socket refused before Control (no key): recorded as a gate refusal. */
  refusedJoystick(credential: CredentialKind | 'anonymous', code: string): void;
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

export function createRecorderSources(recorder: Recorder, inputs: RecorderInputs, clock: TimerClock): RecorderSources {
  const encoder = new TextEncoder();
  const sampler = createCameraSampler({
    clock,
    fps: () => recorder.status().cameraFps,
    record: (frame, ms) =>
      recorder.recordBytes(
        'camera',
        encoder.encode(JSON.stringify(compressedImageMessage(frame.jpeg ?? Buffer.alloc(0), frame.capturedAt))),
        ms,
      ),
  });
  let lastHealth = '';
  /** The app the last `apps` frame showed: its starts and stops are recorded as they are seen. */
  let lastApp: AppSeen | null = null;
  function noteApp(current: AppSeen | null): void {
    const was = lastApp;
    lastApp = current ? { name: current.name, state: current.state, error: current.error } : null;
    if (was && (!current || current.name !== was.name)) recorder.recordAppEvent({ app: was.name, phase: 'stop' });
    if (current && (!was || was.name !== current.name))
      recorder.recordAppEvent({ app: current.name, phase: 'start', detail: current.state });
    else if (current && was && current.state !== was.state && (current.state === 'error' || current.state === 'done'))
      recorder.recordAppEvent({ app: current.name, phase: 'stop', detail: current.error ?? current.state });
  }
  let unsubscribeState: (() => void) | undefined;
  let cameraSubscription: { close(): void } | undefined;

  const followCamera = (on: boolean) => {
    const wanted = on && recorder.status().cameraFps > 0;
    if (wanted && !cameraSubscription) {
      cameraSubscription = inputs.camera.subscribe('jpeg', (frame) => sampler.offer(frame));
      sampler.start();
    }
    if (!wanted && cameraSubscription) {
      sampler.stop();
      cameraSubscription.close();
      cameraSubscription = undefined;
    }
  };
  recorder.onCameraChange(followCamera);

  const controlTap = createControlTap((entry) => recorder.record('control', entry));

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
      sampler.stop();
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
    wrapControlRoutes: (routes) => controlTap.wrapControlRoutes(routes),
    refusedAtGate: (route, ctx, error) => controlTap.refusedAtGate(route, ctx, error),
    watchJoystick: (control) => controlTap.watchJoystick(control),
    refusedJoystick: (credential, code) => controlTap.refusedJoystick(credential, code),
  };
}

/** The tap when no recorder runs (the wheeled server, tests of features alone): everything passes through. */
export const NO_RECORDER_TAP: RecorderTap = Object.freeze({
  observe: () => {},
  wrapControlRoutes: (routes: RouteSpec[]) => routes,
  refusedAtGate: () => {},
  refusedJoystick: () => {},
  watchJoystick: <T>(control: T) => control,
});
