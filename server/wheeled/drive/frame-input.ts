/**
 * Edge validation of a drive frame (docs/contract.md, "How the wheeled server behaves": POST /api/control and the
 * /ws/chat control message): {linear, angular, duration} or {stop: true}. Values are clamped to
 * [-1, 1] and the duration to at most 1 s, so one frame can never drive the base for long: a
 * client keeps moving only by sending a stream of frames. Wrong types are a 400, not a clamp.
 */
import { badRequest } from '../../errors.ts';

export const MAX_FRAME_SECONDS = 1;
export const MIN_FRAME_SECONDS = 0.05;
/** When a frame names no duration. */
export const DEFAULT_FRAME_SECONDS = 0.5;

export interface DriveFrame {
  linear: number;
  angular: number;
  /** Seconds. */
  duration: number;
  /** Some value was out of range and was clamped. */
  clamped: boolean;
}

export type DriveInput = { stop: true } | DriveFrame;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

function axis(body: Record<string, unknown>, name: 'linear' | 'angular'): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${name} must be a number from -1 to 1`);
  return value;
}

export function parseDriveInput(raw: unknown): DriveInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest('a drive frame is a JSON object');
  const body = raw as Record<string, unknown>;
  if (body.stop !== undefined && typeof body.stop !== 'boolean') throw badRequest('stop must be true or false');
  if (body.stop === true) return { stop: true };
  const linear = axis(body, 'linear');
  const angular = axis(body, 'angular');
  if (linear === undefined && angular === undefined)
    throw badRequest('a drive frame needs linear and angular (-1 to 1), or stop: true');
  let duration = DEFAULT_FRAME_SECONDS;
  if (body.duration !== undefined && body.duration !== null) {
    if (typeof body.duration !== 'number' || !Number.isFinite(body.duration) || body.duration <= 0)
      throw badRequest(`duration must be a positive number of seconds (at most ${MAX_FRAME_SECONDS})`);
    duration = body.duration;
  }
  const frame = {
    linear: clamp(linear ?? 0, -1, 1),
    angular: clamp(angular ?? 0, -1, 1),
    duration: clamp(duration, MIN_FRAME_SECONDS, MAX_FRAME_SECONDS),
  };
  const clamped = frame.linear !== (linear ?? 0) || frame.angular !== (angular ?? 0) || frame.duration !== duration;
  return { ...frame, clamped };
}
