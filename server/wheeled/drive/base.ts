/**
 * The wheeled base as the wheeled server sees it: one backend, its speed presets, the drive controller
 * (gate and precedence), the trail of where it has been, and the state object of GET /api/state
 * and /ws/state. The trail is sampled on a timer so it is there even when nobody watches.
 */
import type { WheeledState } from '../../contract/wheeled.ts';
import type { Log } from '../../log.ts';
import { createDriveController, type DriveController } from './drive-controller.ts';
import type { DriveSettings } from './drive-settings.ts';
import { MAX_FRAME_SECONDS } from './frame-input.ts';
import type { DriveBackend } from './types.ts';

const TRAIL_POINTS = 600;
/** A new trail point once the base has moved this far (m). */
const TRAIL_STEP_M = 0.03;
const SAMPLE_MS = 100;

export interface WheeledBase {
  readonly backend: DriveBackend;
  readonly settings: DriveSettings;
  readonly controller: DriveController;
  state(options?: { trail?: boolean }): WheeledState;
  /** The current position becomes the origin and the trail starts again. */
  resetOdometry(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const degrees = (rad: number) => (rad * 180) / Math.PI;

export function createWheeledBase(deps: {
  backend: DriveBackend;
  settings: DriveSettings;
  log: Log;
  now?: () => number;
}): WheeledBase {
  const now = deps.now ?? Date.now;
  const controller = createDriveController({
    backend: deps.backend,
    scale: () => deps.settings.scale(),
    log: deps.log,
    now,
  });
  let trail: Array<[number, number]> = [];
  let sampler: NodeJS.Timeout | undefined;

  const sample = () => {
    const pose = deps.backend.telemetry()?.pose;
    if (!pose) return;
    const last = trail.at(-1);
    if (last && Math.hypot(pose.x - last[0], pose.y - last[1]) < TRAIL_STEP_M) return;
    trail.push([round(pose.x, 3), round(pose.y, 3)]);
    if (trail.length > TRAIL_POINTS) trail = trail.slice(-TRAIL_POINTS);
  };

  const state = (options: { trail?: boolean } = {}): WheeledState => {
    const t = deps.backend.telemetry();
    const presence = deps.backend.presence();
    const active = controller.active();
    const pose = t?.pose ?? { x: 0, y: 0, heading: 0 };
    return {
      robot: 'wheeled',
      time: t?.at ?? now(),
      backend: {
        kind: deps.backend.kind,
        simulated: deps.backend.simulated,
        presence: presence.state,
        problem: presence.problem,
        battery: t?.battery ?? null,
      },
      pose: { x: round(pose.x, 3), y: round(pose.y, 3), heading: round(degrees(pose.heading), 1) },
      velocity: { linear: round(t?.linear ?? 0, 3), angular: round(degrees(t?.angular ?? 0), 1) },
      wheels: t?.wheels ? { left: round(t.wheels.left, 3), right: round(t.wheels.right, 3) } : null,
      driving: active
        ? { driver: active.driver, linear: active.linear, angular: active.angular, until: active.until }
        : null,
      gate: controller.gate(),
      preset: deps.settings.view().preset,
      limits: {
        maxLinear: deps.backend.limits.maxLinear,
        maxAngular: round(degrees(deps.backend.limits.maxAngular), 1),
        maxFrameSeconds: MAX_FRAME_SECONDS,
      },
      ...(options.trail ? { trail: [...trail] } : {}),
    };
  };

  return {
    backend: deps.backend,
    settings: deps.settings,
    controller,
    state,
    resetOdometry() {
      controller.stop({ driver: 'operator', owner: 'reset' });
      deps.backend.resetOdometry();
      trail = [];
      sample();
    },
    async start() {
      await deps.settings.load();
      await deps.backend.start();
      sample();
      sampler = setInterval(sample, SAMPLE_MS);
      sampler.unref();
    },
    async stop() {
      clearInterval(sampler);
      deps.backend.stop();
      await deps.backend.close();
    },
  };
}
