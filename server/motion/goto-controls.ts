/**
 * Manual moves built on the daemon's goto (docs/daemon.md, "Moves"): look, antennas and home. Each
 * clamps to the safe ranges, runs through the arbiter (one move owner) and leaves a receipt.
 * Goto fields left null keep their current value, so a look without head fields moves only
 * what it names.
 */
import type { CredentialKind } from '../contract/ws.ts';
import type { FeedSnapshot } from '../daemon/state-feed.ts';
import { round, toDeg, toHeadPose, toRad } from '../daemon/units.ts';
import { AppError } from '../errors.ts';
import type { GotoRequest, XyzRpy } from '../daemon/wire.ts';
import type { Arbiter } from './arbiter.ts';
import type { ClampNote, LookInput } from '../contract/motion.ts';
import type { AntennasInput } from './control-input.ts';
import { clampText, fmt, receipt, type Emit } from './receipts.ts';
import { daemonBodyYaw, headReachable } from './head-reach.ts';
import { bodyYawRange, clampField, clampTo, type SafeField } from './safe-ranges.ts';

/** `onlyIfIdle`: the move yields to whoever has the head by its turn (arbiter.ts, MoveRequest). */
export interface MoveOptions {
  onlyIfIdle?: boolean;
}

export interface GotoDeps {
  arbiter: Arbiter;
  emit: Emit;
  /** The head's world yaw now (°), from the state feed; undefined when not known (headYawOf). */
  headYaw?: () => number | undefined;
  /** The body's yaw now (°), from the state feed; undefined when not known (bodyYawOf). */
  bodyYaw?: () => number | undefined;
}

/** The head's world yaw (°, to 0.01°) in the feed's latest sample, while the feed is live; else undefined. */
export function headYawOf(snapshot: Pick<FeedSnapshot, 'presence' | 'sample'> | undefined): number | undefined {
  const pose = snapshot?.presence === 'connected' ? snapshot.sample?.state.head_pose : undefined;
  return pose ? toHeadPose(pose).yaw : undefined;
}

/** The body's yaw (°, to 0.01°) in the feed's latest sample, while the feed is live; else undefined. */
export function bodyYawOf(snapshot: Pick<FeedSnapshot, 'presence' | 'sample'> | undefined): number | undefined {
  const yaw = snapshot?.presence === 'connected' ? snapshot.sample?.state.body_yaw : undefined;
  return typeof yaw === 'number' ? round(toDeg(yaw), 2) : undefined;
}

/** A look as sent, after clamping: the body's fields, with the duration always set. */
export type LookApplied = Omit<LookInput, 'duration'> & { duration: number };

export interface GotoResult<T> {
  uuid: string;
  applied: T;
  clamped: Record<string, ClampNote>;
}

const HEAD_FIELDS = ['yaw', 'pitch', 'roll', 'x', 'y', 'z'] as const;
const UNITS: Record<string, string> = {
  yaw: '°',
  pitch: '°',
  roll: '°',
  x: 'mm',
  y: 'mm',
  z: 'mm',
  body_yaw: '°',
  antenna_right: '°',
  antenna_left: '°',
  duration: 's',
  right: '°',
  left: '°',
};
export const DEFAULT_LOOK_SECONDS = 1;
/** The awake antenna pose, ±10° (docs/daemon.md, "Conventions": init [-0.1745, 0.1745]). */
const NEUTRAL_ANTENNAS: [number, number] = [-10, 10];

/**
 * Pure: the clamped pose (deg/mm) and the goto for the daemon (rad/m); `headYaw`, `bodyYaw`: the
 * head's world yaw and the body's yaw now (°). A head pose out of the head's reach is refused.
 */
export function planLook(
  input: LookInput,
  headYaw?: number,
  bodyYaw?: number,
): {
  applied: LookApplied;
  clamped: Record<string, ClampNote>;
  goto: GotoRequest;
} {
  const clamped: Record<string, ClampNote> = {};
  const applied: LookApplied = { duration: clampField('duration', input.duration ?? DEFAULT_LOOK_SECONDS, clamped) };
  const goto: GotoRequest = { duration: applied.duration };
  let headPose: Required<XyzRpy> | undefined;
  if (HEAD_FIELDS.some((f) => input[f] !== undefined)) {
    // An absolute pose: head fields not given are neutral (0), as the daemon's pose model has it.
    for (const f of HEAD_FIELDS) applied[f] = clampField(f as SafeField, input[f] ?? 0, clamped);
    goto.head_pose = headPose = {
      x: mm(applied.x),
      y: mm(applied.y),
      z: mm(applied.z),
      roll: rad(applied.roll),
      pitch: rad(applied.pitch),
      yaw: rad(applied.yaw),
    };
  }
  if (input.antennas) {
    applied.antennas = [
      clampField('antenna', input.antennas[0], clamped, 'antenna_right'),
      clampField('antenna', input.antennas[1], clamped, 'antenna_left'),
    ];
    goto.antennas = [toRad(applied.antennas[0]), toRad(applied.antennas[1])];
  }
  if (input.body_yaw !== undefined) {
    // The daemon moves the body no further than 65° from the head's world yaw: the one in the
    // same goto, else the head's yaw now, which a goto without head fields keeps. The answer says
    // where the body goes, not where it was asked to. With the head's yaw not known (the state
    // feed down), the safe range is all that is applied.
    const head = applied.yaw ?? headYaw;
    if (head === undefined) applied.body_yaw = clampField('body_yaw', input.body_yaw, clamped);
    else {
      applied.body_yaw = clampTo(bodyYawRange(head), input.body_yaw);
      if (applied.body_yaw !== input.body_yaw)
        clamped['body_yaw'] = { requested: input.body_yaw, applied: applied.body_yaw };
    }
    goto.body_yaw = toRad(applied.body_yaw);
  } else if (goto.head_pose && bodyYaw !== undefined) {
    // A look naming the head only still moves the body when the body is more than 65° from the
    // head's new yaw: the daemon takes it along (a head sent to -60° with the body at 100° took the
    // body to 5°). That body move is sent and said, not left for the operator to discover.
    const along = clampTo(bodyYawRange(applied.yaw ?? 0), bodyYaw);
    if (along !== bodyYaw) {
      applied.body_yaw = along;
      goto.body_yaw = toRad(along);
    }
  }
  if (headPose) assertReachable(applied, headPose, bodyYaw);
  return { applied, clamped, goto };
}

/**
 * Each axis is in range, but together they may be out of the head's reach: the daemon would stop
 * the head short of the pose and end the move `completed` (head-reach.ts), so the answer would
 * name a pose the head never takes. The body is where the look sends it, else where it is now,
 * within 65° of the head's yaw as the daemon keeps it.
 */
function assertReachable(applied: LookApplied, pose: Required<XyzRpy>, bodyYawNow: number | undefined): void {
  const body = applied.body_yaw ?? clampTo(bodyYawRange(applied.yaw ?? 0), bodyYawNow ?? 0);
  // Judged where the daemon's IK takes the body: it measures the head's yaw its own way
  // (head-reach.ts, daemonBodyYaw), a few degrees off the pose's yaw on a pitched, rolled head.
  if (headReachable(pose, daemonBodyYaw(pose, toRad(body)))) return;
  const axes = HEAD_FIELDS.filter((f) => applied[f] !== undefined && applied[f] !== 0)
    .map((f) => `${f} ${fmt(applied[f] as number, UNITS[f] as string)}`)
    .join(', ');
  throw new AppError(
    'BAD_REQUEST',
    `the head cannot reach ${axes} together (each is in range, the mix is not): ask for less of one of them`,
  );
}

const mm = (v: number | undefined): number => (v ?? 0) / 1000;
const rad = (v: number | undefined): number => toRad(v ?? 0);

export function describeLook(a: LookApplied): string {
  const parts = HEAD_FIELDS.filter((f) => a[f] !== undefined && a[f] !== 0).map(
    (f) => `${f} ${fmt(a[f] as number, UNITS[f] as string)}`,
  );
  if (parts.length === 0 && a.yaw !== undefined) parts.push('straight ahead');
  if (a.antennas) parts.push(`antennas ${fmt(a.antennas[0], '°')} / ${fmt(a.antennas[1], '°')}`);
  if (a.body_yaw !== undefined) parts.push(`body ${fmt(a.body_yaw, '°')}`);
  return `look ${parts.join(' ')} in ${fmt(a.duration, 's')}`;
}

export async function look(
  deps: GotoDeps,
  input: LookInput,
  credential: CredentialKind,
  options: MoveOptions = {},
): Promise<GotoResult<LookApplied>> {
  const { applied, clamped, goto } = planLook(input, deps.headYaw?.(), deps.bodyYaw?.());
  const hold = goto.head_pose ? 'look' : undefined;
  const move = await deps.arbiter.run({
    label: 'look',
    hold,
    maxSeconds: applied.duration + 1,
    ...(options.onlyIfIdle ? { onlyIfIdle: true } : {}),
    start: (d) => d.goto(goto),
  });
  deps.emit(receipt('look', describeLook(applied) + clampText(clamped, UNITS), credential, { ...applied, clamped }));
  return { uuid: move.uuid, applied, clamped };
}

export async function antennas(
  deps: GotoDeps,
  input: AntennasInput,
  credential: CredentialKind,
): Promise<GotoResult<AntennasInput>> {
  const clamped: Record<string, ClampNote> = {};
  const applied = {
    right: clampField('antenna', input.right, clamped, 'right'),
    left: clampField('antenna', input.left, clamped, 'left'),
  };
  const goto: GotoRequest = { antennas: [toRad(applied.right), toRad(applied.left)], duration: 0.5 };
  const move = await deps.arbiter.run({ label: 'antennas', maxSeconds: 2, start: (d) => d.goto(goto) });
  const text = `antennas right ${fmt(applied.right, '°')} left ${fmt(applied.left, '°')}${clampText(clamped, UNITS)}`;
  deps.emit(receipt('antennas', text, credential, { ...applied, clamped }));
  return { uuid: move.uuid, applied, clamped };
}

/** The neutral pose: head at identity, antennas at ±10°, body straight. */
export const HOME_GOTO: GotoRequest = Object.freeze({
  head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 },
  antennas: [toRad(NEUTRAL_ANTENNAS[0]), toRad(NEUTRAL_ANTENNAS[1])],
  body_yaw: 0,
  duration: 1.5,
}) as GotoRequest;

export async function home(
  deps: GotoDeps,
  credential: CredentialKind,
  options: MoveOptions = {},
): Promise<{ uuid: string }> {
  const move = await deps.arbiter.run({
    label: 'home',
    hold: 'look',
    maxSeconds: 3,
    ...(options.onlyIfIdle ? { onlyIfIdle: true } : {}),
    start: (d) => d.goto(HOME_GOTO),
  });
  deps.emit(receipt('home', 'home: neutral pose', credential, { duration: HOME_GOTO.duration }));
  return { uuid: move.uuid };
}
