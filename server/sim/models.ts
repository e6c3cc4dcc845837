/**
 * The daemon's request models (docs/daemon.md, "The protocol as the cockpit uses it"), validated like pydantic would. Each parser
 * takes the decoded JSON body and either returns sim-side values or throws ValidationError.
 */
import { INTERPOLATIONS, type Interpolation } from './curves.ts';
import { antennas, datetime, float, floatTuple, isObject, oneOf, type Errors } from './fields.ts';
import { poseFromMatrix, poseFromXyzrpy, type RigidPose } from './pose.ts';
import { missing, modelAttributesType, ValidationError, type Loc } from './pydantic.ts';

const XYZRPY_KEYS = ['x', 'y', 'z', 'roll', 'pitch', 'yaw'] as const;

function xyzrpyBranch(value: Record<string, unknown>, loc: Loc, errors: Errors): RigidPose | undefined {
  const before = errors.length;
  const p = { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 };
  for (const key of XYZRPY_KEYS) {
    if (value[key] !== undefined) p[key] = float(value[key], [...loc, 'XYZRPYPose', key], errors) ?? 0;
  }
  return errors.length === before ? poseFromXyzrpy(p) : undefined;
}

function matrixBranch(value: Record<string, unknown>, loc: Loc, errors: Errors): RigidPose | undefined {
  if (value.m === undefined) {
    errors.push(missing([...loc, 'Matrix4x4Pose', 'm'], value));
    return undefined;
  }
  const m = floatTuple(value.m, [...loc, 'Matrix4x4Pose', 'm'], errors, 16);
  return m ? poseFromMatrix(m) : undefined;
}

/**
 * `AnyPose = XYZRPYPose | Matrix4x4Pose`, pydantic "smart" union: a valid `m` wins; otherwise
 * the XYZRPY branch, whose fields all default to 0, accepts any object, so `{}` and even a
 * malformed `{"m":"x"}` become the identity pose. Errors only when both branches fail.
 */
export function anyPose(value: unknown, loc: Loc, errors: Errors): RigidPose | undefined {
  if (!isObject(value)) {
    for (const name of ['XYZRPYPose', 'Matrix4x4Pose']) {
      const msg = `Input should be a valid dictionary or instance of ${name}`;
      errors.push({ type: 'model_type', loc: [...loc, name], msg, input: value, ctx: { class_name: name } });
    }
    return undefined;
  }
  const matrixErrors: Errors = [];
  const matrix = matrixBranch(value, loc, matrixErrors);
  if (matrix) return matrix;
  const xyzErrors: Errors = [];
  const xyz = xyzrpyBranch(value, loc, xyzErrors);
  if (xyz) return xyz;
  errors.push(...xyzErrors, ...matrixErrors);
  return undefined;
}

function requireObject(body: unknown): Record<string, unknown> {
  if (body === undefined) throw new ValidationError([missing(['body'])]);
  if (!isObject(body)) throw new ValidationError([modelAttributesType(['body'], body)]);
  return body;
}

function optional<T>(value: unknown, parse: (v: unknown) => T | undefined): T | undefined {
  return value === undefined || value === null ? undefined : parse(value);
}

function done<T>(errors: Errors, value: T): T {
  if (errors.length > 0) throw new ValidationError(errors);
  return value;
}

export interface BodyTargetInput {
  head?: RigidPose;
  antennas?: [number, number];
  bodyYaw?: number;
}

export interface GotoInput extends BodyTargetInput {
  duration: number;
  interpolation: Interpolation;
}

export function parseGoto(body: unknown): GotoInput {
  const b = requireObject(body);
  const errors: Errors = [];
  const head = optional(b.head_pose, (v) => anyPose(v, ['body', 'head_pose'], errors));
  const ant = optional(b.antennas, (v) => antennas(v, ['body', 'antennas'], errors));
  const bodyYaw = optional(b.body_yaw, (v) => float(v, ['body', 'body_yaw'], errors));
  let duration = 0;
  if (b.duration === undefined) errors.push(missing(['body', 'duration'], b));
  else duration = float(b.duration, ['body', 'duration'], errors) ?? 0;
  const interpolation =
    b.interpolation === undefined
      ? 'minjerk'
      : oneOf(b.interpolation, ['body', 'interpolation'], errors, INTERPOLATIONS);
  return done(errors, { head, antennas: ant, bodyYaw, duration, interpolation: interpolation ?? 'minjerk' });
}

/** `FullBodyTarget`; `loc` prefix differs between REST (`body`) and the WS text rendering. */
export function parseFullBodyTarget(body: unknown): BodyTargetInput {
  const b = requireObject(body);
  const errors: Errors = [];
  const head = optional(b.target_head_pose, (v) => anyPose(v, ['body', 'target_head_pose'], errors));
  const ant = optional(b.target_antennas, (v) => antennas(v, ['body', 'target_antennas'], errors));
  const bodyYaw = optional(b.target_body_yaw, (v) => float(v, ['body', 'target_body_yaw'], errors));
  if (b.timestamp !== undefined && b.timestamp !== null) datetime(b.timestamp, ['body', 'timestamp'], errors);
  return done(errors, { head, antennas: ant, bodyYaw });
}

/** Runs a body parser for a route whose model has one required field. */
export function parseRequired<T>(
  body: unknown,
  field: string,
  parse: (v: unknown, loc: Loc, e: Errors) => T | undefined,
): T {
  const b = requireObject(body);
  const errors: Errors = [];
  if (b[field] === undefined) {
    errors.push(missing(['body', field], b));
    throw new ValidationError(errors);
  }
  const value = parse(b[field], ['body', field], errors);
  return done(errors, value as T);
}

export { requireObject };
