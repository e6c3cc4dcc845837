/**
 * What the /sim/* routes share (server/sim/routes-sim.ts and routes-sim-faults.ts): reading a
 * JSON body and its fields, refusing bad ones with 400, and the status every POST answers.
 */
import type { SimContext } from './context.ts';
import { isObject } from './fields.ts';
import { DetailError, jsonBody, type SimRequest } from './http-kit.ts';

/** Radians per degree: the /sim routes take degrees, the world keeps radians. */
export const DEG = Math.PI / 180;

export class SimInputError extends DetailError {
  constructor(message: string) {
    super(400, message);
    this.name = 'SimInputError';
  }
}

export function body(req: SimRequest): Record<string, unknown> {
  let value: unknown;
  try {
    value = jsonBody(req);
  } catch {
    throw new SimInputError('body is not valid JSON');
  }
  if (!isObject(value)) throw new SimInputError('body must be a JSON object');
  return value;
}

export function num(b: Record<string, unknown>, key: string, min: number, max: number): number {
  const v = b[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
    throw new SimInputError(`${key} must be a number in ${min}..${max}`);
  return v;
}

export function bool(b: Record<string, unknown>, key: string): boolean {
  if (typeof b[key] !== 'boolean') throw new SimInputError(`${key} must be true or false`);
  return b[key];
}

/** Back to the degrees the caller gave, without the float noise of the round trip. */
function degrees(rad: number): number {
  return Math.round((rad / DEG) * 1e9) / 1e9;
}

export function simStatus(ctx: SimContext): Record<string, unknown> {
  const face = ctx.world.tracking.face;
  return {
    backend: { state: ctx.lifecycle.state, ready: ctx.lifecycle.ready },
    latencyMs: ctx.faults.latencyMs,
    hang: ctx.faults.hang,
    realistic: ctx.world.realistic,
    face: face ? { present: true, yaw: degrees(face.yaw), pitch: degrees(face.pitch) } : { present: false },
    speaker: { ...ctx.doa.speaker },
    motorMode: ctx.world.mode,
    tracking: { enabled: ctx.world.tracking.enabled, weight: ctx.world.tracking.requestedWeight },
    camera: { on: ctx.camera.on, live: ctx.camera.on && !ctx.media.released, signallingUrl: ctx.camera.signallingUrl },
    microphone: ctx.camera.microphone(),
    appLock: { ...ctx.appLock },
    motorError: ctx.faults.motorError,
    apps: { current: ctx.apps.status(), crashAfterMs: ctx.apps.crashAfterMs, lockHolder: ctx.apps.lockHolder() },
    runningMoves: ctx.moves.listed().length,
    counters: ctx.snapshotCounters(),
  };
}
