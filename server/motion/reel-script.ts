/**
 * The showcase reel's script (docs/contract.md, "Reel"): wake, welcoming1, look left and
 * right, curious1, look up, a dance, laughing1, an antenna wiggle, proud1, home. With the pauses
 * between steps it runs about a minute. Every step is a move run through the arbiter and waited
 * for, so the reel owns the head exactly like a person at the controls.
 */
import type { HeadPose } from '../contract/state.ts';
import { toRad, toWirePose } from '../daemon/units.ts';
import type { DaemonClient } from '../daemon/daemon-client.ts';
import type { MoveRequest } from './arbiter.ts';
import { HOME_GOTO } from './goto-controls.ts';
import type { MoveLibraryCache } from './move-library.ts';
import { RECORDED_MOVE_TIMING } from './robot-controls.ts';

export interface ReelContext {
  /** Runs one move as the reel and resolves when it has ended (or the reel was aborted). */
  move(request: Omit<MoveRequest, 'owner'>): Promise<void>;
  moves: Pick<MoveLibraryCache, 'find'>;
  signal: AbortSignal;
}

export interface ReelStep {
  label: string;
  run(reel: ReelContext): Promise<void>;
}

const NEUTRAL: HeadPose = { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 };

export function recordedStep(name: string): ReelStep {
  return {
    label: name,
    async run(reel) {
      const entry = await reel.moves.find(name);
      await reel.move({
        label: `reel ${name}`,
        hold: `emotion:${name}`,
        ...RECORDED_MOVE_TIMING,
        start: (d) => d.playMove(entry.dataset, entry.name),
      });
    },
  };
}

export function lookStep(label: string, pose: Partial<HeadPose>, seconds: number): ReelStep {
  const head_pose = toWirePose({ ...NEUTRAL, ...pose });
  return {
    label,
    run: (reel) =>
      reel.move({
        label: `reel ${label}`,
        hold: 'look',
        maxSeconds: seconds + 1,
        start: (d) => d.goto({ head_pose, duration: seconds }),
      }),
  };
}

const wakeStep: ReelStep = {
  label: 'wake',
  run: (reel) =>
    reel.move({
      label: 'reel wake',
      hold: 'emotion:wake_up',
      maxSeconds: 10,
      start: async (d: DaemonClient, stillWanted) => {
        await d.setMotorMode('enabled');
        stillWanted();
        return d.wakeUp();
      },
    }),
};

/** Four quick antenna frames (right, left in degrees), then back to the awake ±10°. */
const WIGGLE: Array<[number, number]> = [
  [-60, 20],
  [-20, 60],
  [-60, 20],
  [-20, 60],
  [-10, 10],
];

const wiggleStep: ReelStep = {
  label: 'antenna wiggle',
  async run(reel) {
    for (const [right, left] of WIGGLE) {
      if (reel.signal.aborted) return;
      const antennas: [number, number] = [toRad(right), toRad(left)];
      await reel.move({ label: 'reel wiggle', maxSeconds: 2, start: (d) => d.goto({ antennas, duration: 0.3 }) });
    }
  },
};

const homeStep: ReelStep = {
  label: 'home',
  run: (reel) => reel.move({ label: 'reel home', hold: 'look', maxSeconds: 3, start: (d) => d.goto(HOME_GOTO) }),
};

/** The dance comes from the dances library (docs/daemon.md, "Move libraries"). */
export const REEL_DANCE = 'groovy_sway_and_roll';

export const SHOWCASE_REEL: readonly ReelStep[] = Object.freeze([
  wakeStep,
  recordedStep('welcoming1'),
  lookStep('look left', { yaw: 35 }, 1.2),
  lookStep('look right', { yaw: -35 }, 1.5),
  recordedStep('curious1'),
  // Positive pitch is nose down (docs/daemon.md, "Conventions"), so up is negative.
  lookStep('look up', { pitch: -20 }, 1.2),
  recordedStep(REEL_DANCE),
  recordedStep('laughing1'),
  wiggleStep,
  recordedStep('proud1'),
  homeStep,
]);
