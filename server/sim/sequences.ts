/**
 * The daemon's built-in wake-up and sleep sequences as move steps, with the real timings
 * (docs/daemon.md, "Moves"): wake-up from sleep ≈ 2.07 s, goto_sleep from awake ≈ 4.0 s ending with
 * the motors disabled. Gotos without a body yaw drive it to 0, as `goto_target`'s default does.
 */
import { INIT_ANTENNAS, SLEEP_ANTENNAS, SLEEP_HEAD_POSE } from './kinematics.ts';
import type { Step } from './moves.ts';
import { angleBetween, IDENTITY_POSE, magicDistance, poseFromXyzrpy } from './pose.ts';
import type { MotorMode, World } from './world.ts';

export interface SequenceDeps {
  world: World;
  playSound(file: string): void;
  /** Silences wobbling, speech offsets and face tracking before a scripted move. */
  quiesce(): void;
  setMode(mode: MotorMode): void;
}

const INIT_TARGET = { head: IDENTITY_POSE, antennas: [...INIT_ANTENNAS] as [number, number], bodyYaw: 0 };
const SLEEP_TARGET = { head: SLEEP_HEAD_POSE, antennas: [...SLEEP_ANTENNAS] as [number, number], bodyYaw: 0 };
const ROLL_20 = poseFromXyzrpy({ x: 0, y: 0, z: 0, roll: (20 * Math.PI) / 180, pitch: 0, yaw: 0 });
/** Within this many magic units of the sleep pose the robot counts as already down. */
const SLEEP_ATOL = 10;
const INIT_ATOL = 1e-2;

function awakeAtInit(world: World): boolean {
  const c = world.commanded;
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= INIT_ATOL;
  return (
    world.mode === 'enabled' &&
    c.head.t.every((v) => Math.abs(v) <= INIT_ATOL) &&
    angleBetween(c.head.q, IDENTITY_POSE.q) <= INIT_ATOL &&
    near(c.antennas[0], INIT_ANTENNAS[0]) &&
    near(c.antennas[1], INIT_ANTENNAS[1])
  );
}

/** Stands down silently when already awake at init; it never enables the motors itself. */
export function wakeUpSteps(deps: SequenceDeps): Step[] {
  const sequence = (): Step[] => [
    { kind: 'goto', target: INIT_TARGET, duration: (from) => (magicDistance(from.head, IDENTITY_POSE) * 20) / 1000 },
    { kind: 'wait', duration: 0.1 },
    { kind: 'do', run: () => deps.playSound('wake_up.wav') },
    { kind: 'goto', target: { head: ROLL_20, bodyYaw: 0 }, duration: 0.2 },
    { kind: 'goto', target: { head: IDENTITY_POSE, bodyYaw: 0 }, duration: 0.2 },
  ];
  return [
    { kind: 'wait', duration: 0.1 },
    { kind: 'branch', choose: () => (awakeAtInit(deps.world) ? [] : sequence()) },
  ];
}

export function gotoSleepSteps(deps: SequenceDeps): Step[] {
  const far = (): Step[] => {
    const head = deps.world.present.head;
    const viaInit: Step[] =
      magicDistance(head, IDENTITY_POSE) > 30
        ? [
            { kind: 'goto', target: INIT_TARGET, duration: 1 },
            { kind: 'wait', duration: 0.2 },
          ]
        : [];
    return [
      ...viaInit,
      { kind: 'do', run: () => deps.playSound('go_sleep.wav') },
      { kind: 'goto', target: SLEEP_TARGET, duration: 2 },
      { kind: 'wait', duration: 2 },
    ];
  };
  // Already down: only the sound, and a longer wait so it can finish.
  const near = (): Step[] => [
    { kind: 'do', run: () => deps.playSound('go_sleep.wav') },
    { kind: 'wait', duration: 5 },
  ];
  return [
    { kind: 'do', run: deps.quiesce },
    {
      kind: 'branch',
      choose: () => (magicDistance(deps.world.present.head, SLEEP_HEAD_POSE) > SLEEP_ATOL ? far() : near()),
    },
    { kind: 'do', run: () => deps.setMode('disabled') },
  ];
}

/** What `stop?goto_sleep=true` runs: torque on, lift to init, then the normal sleep sequence. */
export function resetToSleepSteps(deps: SequenceDeps): Step[] {
  const lift = (from: { head: typeof IDENTITY_POSE }): number =>
    Math.max(0.3, Math.min(1.5, (magicDistance(from.head, IDENTITY_POSE) * 20) / 1000));
  return [
    { kind: 'do', run: deps.quiesce },
    { kind: 'do', run: () => deps.setMode('enabled') },
    { kind: 'goto', target: INIT_TARGET, duration: lift },
    { kind: 'wait', duration: 0.2 },
    ...gotoSleepSteps(deps),
  ];
}
