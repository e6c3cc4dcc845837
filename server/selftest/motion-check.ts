/**
 * The joint check: a small test move of the head (10° to the left, then home), then every joint
 * read back within its limits. It moves the robot, so it runs only when the operator confirmed,
 * nothing holds the robot, and through Control like any other move (receipts, the latch, the
 * arbiter). "Nothing holds the robot" is asked of the daemon itself, right before the move: its
 * app lock (`robot-app-lock-status`, server/motion/app-lock.ts) names an app it runs or a remote
 * session (an app on another computer driving the robot through the daemon), which the cockpit's
 * own view of the apps cannot see. Nor does it take the head from anyone in the cockpit: a move
 * of another user, the joystick or the reel has it, and the check is skipped, naming who, rather
 * than end theirs as a manual move would (the arbiter's takeover, server/motion/arbiter.ts); its
 * own moves are sent to yield to whoever has the head by their turn (`onlyIfIdle`).
 */
import type { RobotState } from '../contract/state.ts';
import { isAppError } from '../errors.ts';
import { SAFE } from '../motion/safe-ranges.ts';
import type { Check, Finding } from './run-checks.ts';

export interface MotionDeps {
  confirmed: boolean;
  /** The app holding the robot as the cockpit's apps poll last saw it, or null. */
  appHolder(): string | null;
  /**
   * Reads the daemon's app lock now: null when free (or a daemon too old to have one), else
   * who holds it; throws when the daemon cannot be asked.
   */
  lockHolder(): Promise<string | null>;
  /** Who has the head in the cockpit now (a move, the joystick, the reel), or null. */
  headHolder(): string | null;
  latched(): boolean;
  /**
   * How many times the STOP was engaged (StopLatch.engagements): a STOP during the check ends it,
   * even one resumed before the next step.
   */
  stops(): number;
  /** Both yield to whoever has the head by their turn: refused with CONFLICT then (arbiter.ts, onlyIfIdle). */
  testMove(yaw: number): Promise<{ uuid: string } | void>;
  home(): Promise<{ uuid: string } | void>;
  /** The move that has the head now (its uuid, arbiter.ts `current`), or undefined. */
  currentMove(): string | undefined;
  state(): RobotState | undefined;
  /** Poll step while waiting for a move to end. */
  stepMs?: number;
}

export const TEST_YAW = 10;
const TOLERANCE = 4;

/**
 * Waits for the check's own move (`own`) to end. True when another move took the head meanwhile:
 * a manual move of another user cancels the check's, and its end is no end of the check's.
 */
async function settled(deps: MotionDeps, maxMs: number, own: string | undefined): Promise<boolean> {
  const step = deps.stepMs ?? 50;
  for (let waited = 0; ; waited += step) {
    const current = deps.currentMove();
    if (current === undefined) return false;
    if (own !== undefined && current !== own) return true;
    if (waited > maxMs) throw new Error('the test move did not finish');
    await new Promise((resolve) => setTimeout(resolve, step));
  }
}

/** Joints outside their limits, as readable lines. */
export function outOfLimits(state: RobotState): string[] {
  const within = (v: number, r: { min: number; max: number }) => v >= r.min - 1 && v <= r.max + 1;
  const checks: [string, number, { min: number; max: number }][] = [
    ['head yaw', state.head.yaw, SAFE.yaw],
    ['head pitch', state.head.pitch, SAFE.pitch],
    ['head roll', state.head.roll, SAFE.roll],
    ['body yaw', state.bodyYaw, SAFE.body_yaw],
    ['right antenna', state.antennas.right, SAFE.antenna],
    ['left antenna', state.antennas.left, SAFE.antenna],
  ];
  return checks
    .filter(([, v, r]) => !within(v, r))
    .map(([name, v, r]) => `${name} ${v.toFixed(1)}° (limits ${r.min}..${r.max}°)`);
}

/** The state after the move: the cached state may trail the move's end by a few samples, so it is read until the head is there (bounded). */
async function stateAtTarget(deps: MotionDeps, maxMs: number): Promise<RobotState | undefined> {
  const step = deps.stepMs ?? 50;
  let state = deps.state();
  for (let waited = 0; waited < maxMs; waited += step) {
    if (state && Math.abs(state.head.yaw - TEST_YAW) <= TOLERANCE) break;
    await new Promise((resolve) => setTimeout(resolve, step));
    state = deps.state();
  }
  return state;
}

/** Thrown between the steps when a STOP came during the check. */
class StoppedDuringCheck extends Error {}

/** A move that yields (testMove, home): null once sent, or who had the head when it was refused (CONFLICT). */
function sentOrHolder(
  deps: MotionDeps,
  move: Promise<{ uuid: string } | void>,
): Promise<{ uuid: string | undefined } | { holder: string }> {
  return move.then(
    (sent) => ({ uuid: sent?.uuid }),
    (error: unknown) => {
      if (isAppError(error) && error.code === 'CONFLICT') return { holder: deps.headHolder() ?? 'another move' };
      throw error;
    },
  );
}

/** After the check's move: who took the head from it (another move, the joystick, the reel), or null. */
async function takenFrom(deps: MotionDeps, own: string | undefined): Promise<string | null> {
  const byMove = await settled(deps, 5000, own);
  return byMove ? (deps.headHolder() ?? 'another move') : deps.headHolder();
}

const inUse = (holder: string): Finding => ({
  outcome: 'skipped',
  detail: `Not run: the head is in use by ${holder}.`,
  advice: 'Wait until it ends, or end it, then check again.',
});

const STOPPED: Finding = {
  outcome: 'skipped',
  detail: 'Not finished: the STOP came during the check, so the head was not moved again.',
  advice: 'Resume, then check again.',
};

async function moveAndRead(deps: MotionDeps, signal: AbortSignal, stops: number): Promise<Finding> {
  // A slow daemon can keep a step waiting past the check's time limit. Its result is out by then
  // (a fail), so no further move goes out: the head would move after the self-test had answered,
  // and under a self-test run again meanwhile. A STOP ends the check too, even one resumed before
  // the next step (Control refuses a move only while the stop holds): the head is not sent home
  // after the resume by a check the operator stopped.
  const next = () => {
    signal.throwIfAborted();
    if (deps.stops() !== stops) throw new StoppedDuringCheck();
  };
  next();
  const test = await sentOrHolder(deps, deps.testMove(TEST_YAW));
  if ('holder' in test) return inUse(test.holder);
  next();
  // Whoever took the head during the test move keeps it: where the head went is theirs to say.
  const during = await takenFrom(deps, test.uuid);
  if (during)
    return {
      outcome: 'skipped',
      detail: `Not finished: ${during} took the head during the test move, so it was not judged or sent home.`,
      advice: 'Check again when the head is free.',
    };
  const state = await stateAtTarget(deps, 2000);
  next();
  // Someone who took the head since the test move keeps it: the head is not sent home.
  const home = await sentOrHolder(deps, deps.home());
  const tookOver = 'holder' in home ? home.holder : await takenFrom(deps, home.uuid);
  if (!state)
    return {
      outcome: 'fail',
      detail: 'No robot state arrived after the test move.',
      advice: 'Check the daemon connection.',
    };
  const values = { targetYaw: TEST_YAW, yaw: Math.round(state.head.yaw * 10) / 10 };
  const outside = outOfLimits(state);
  if (outside.length > 0)
    return {
      outcome: 'fail',
      detail: `Out of limits after the test move: ${outside.join(', ')}.`,
      advice: 'Relax the motors and move the head gently back by hand, then restart the robot.',
      values,
    };
  if (Math.abs(state.head.yaw - TEST_YAW) > TOLERANCE)
    return {
      outcome: 'fail',
      detail: `The head reached ${values.yaw}° instead of ${TEST_YAW}°.`,
      advice: 'Something blocks the head or a motor is weak: check for obstruction, then run the check again.',
      values,
    };
  return {
    outcome: 'ok',
    detail: tookOver
      ? `The head turned to ${values.yaw}°; every joint is within its limits. It was not sent back: ${tookOver} took the head.`
      : `The head turned to ${values.yaw}° and back; every joint is within its limits.`,
    values,
  };
}

export function motionCheck(deps: MotionDeps): Check {
  return {
    id: 'joints',
    title: 'Joints within limits after a test move',
    timeoutMs: 15_000,
    run(signal) {
      const stops = deps.stops();
      if (!deps.confirmed)
        return Promise.resolve({
          outcome: 'skipped',
          detail: 'Not run: the small test move needs your confirmation.',
          advice: 'Tick "Include a small test move" and check again.',
        } satisfies Finding);
      const holder = deps.appHolder();
      if (holder)
        return Promise.resolve({
          outcome: 'skipped',
          detail: `Not run: the app ${holder} holds the robot.`,
          advice: 'Stop the app first to include the test move.',
        } satisfies Finding);
      if (deps.latched())
        return Promise.resolve({
          outcome: 'skipped',
          detail: 'Not run: the STOP is latched.',
          advice: 'Resume, then check again.',
        } satisfies Finding);
      // Motors off (the robot sleeps) or compliant do not hold the head at a target: the move would
      // read as "something blocks the head or a motor is weak".
      const mode = deps.state()?.motorMode;
      if (mode === 'disabled' || mode === 'gravity_compensation')
        return Promise.resolve({
          outcome: 'skipped',
          detail: `Not run: the motors are ${mode === 'disabled' ? 'off (the robot sleeps)' : 'in gravity compensation'}, so the head would not hold a test move.`,
          advice: 'Wake the robot, then check again.',
        } satisfies Finding);
      return deps.lockHolder().then(
        (locked): Promise<Finding> | Finding => {
          if (locked)
            return {
              outcome: 'skipped',
              detail: `Not run: the robot is in use by ${locked}.`,
              advice: 'Stop that app or end the remote session, then check again.',
            };
          // Read after the lock, right before the move: a move started meanwhile keeps the head.
          const holder = deps.headHolder();
          if (holder) return inUse(holder);
          return moveAndRead(deps, signal, stops).catch((error: unknown) => {
            // A step Control refused because of the STOP (STOP_LATCHED) is the same stop.
            if (error instanceof StoppedDuringCheck || deps.stops() !== stops) return STOPPED;
            throw error;
          });
        },
        (error: unknown): Finding => ({
          outcome: 'skipped',
          detail: `Not run: the daemon did not say whether something holds the robot (${error instanceof Error ? error.message : String(error)}).`,
          advice: 'Check the daemon connection (the daemon check above), then check again.',
        }),
      );
    },
  };
}
