/**
 * The simulated robot body, ticked at 50 Hz like the daemon's control loop (server/sim/README-sim.md).
 * Targets land in `commanded`; each tick copies them to `present` as the mockup backend does,
 * after the face-tracking blend and the automatic body-yaw clamp. In "realistic" mode the
 * motor mode gates motion as on hardware: with torque off the body stays where it is.
 */
import { bodyYawFor, INIT_ANTENNAS, isReachable, isReachableAntennas } from './kinematics.ts';
import type { BodyTargetInput } from './models.ts';
import { IDENTITY_POSE, type RigidPose } from './pose.ts';
import { createTracking, type Tracking } from './tracking.ts';

export type MotorMode = 'enabled' | 'disabled' | 'gravity_compensation';
export const MOTOR_MODES: readonly MotorMode[] = ['enabled', 'disabled', 'gravity_compensation'];

export interface BodyState {
  head: RigidPose;
  /** [right, left], radians. */
  antennas: [number, number];
  bodyYaw: number;
}

export interface World {
  /** What the sensors report. Body yaw here is the clamped one. */
  readonly present: Readonly<BodyState>;
  /** The last accepted target; body yaw unclamped, as the backend keeps it. */
  readonly commanded: Readonly<BodyState>;
  readonly mode: MotorMode;
  realistic: boolean;
  readonly tracking: Tracking;
  /**
   * False when the IK would fail (unreachable pose): the head and body part is skipped, as the
   * daemon does, and its antennas are still taken.
   */
  setTarget(target: BodyTargetInput): boolean;
  setMode(mode: MotorMode): void;
  tick(nowS: number, wallS: number): void;
}

function copy(s: Readonly<BodyState>): BodyState {
  return { head: { t: [...s.head.t], q: [...s.head.q] }, antennas: [...s.antennas], bodyYaw: s.bodyYaw };
}

/** Boots awake at the neutral pose with motors enabled, like a mockup daemon after its start-up wake. */
export function createWorld(): World {
  const awake: BodyState = { head: IDENTITY_POSE, antennas: [...INIT_ANTENNAS], bodyYaw: 0 };
  let present = copy(awake);
  let commanded = copy(awake);
  let mode: MotorMode = 'enabled';
  const tracking = createTracking();

  const moves = (): boolean => !world.realistic || mode === 'enabled';

  const world: World = {
    get present() {
      return present;
    },
    get commanded() {
      return commanded;
    },
    get mode() {
      return mode;
    },
    realistic: false,
    tracking,
    setTarget(target) {
      if (target.antennas && !isReachableAntennas(target.antennas)) return false;
      const head = target.head ?? commanded.head;
      if ((target.head || target.bodyYaw !== undefined) && !isReachable(head, target.bodyYaw ?? commanded.bodyYaw)) {
        // The daemon sets the antennas apart from the head's IK: they still go where they are sent.
        if (target.antennas) commanded = { ...commanded, antennas: [...target.antennas] };
        return false;
      }
      commanded = {
        head: target.head ?? commanded.head,
        antennas: target.antennas ? [...target.antennas] : commanded.antennas,
        bodyYaw: target.bodyYaw ?? commanded.bodyYaw,
      };
      return true;
    },
    setMode(next) {
      // On hardware, enabling torque first pins every target to the measured pose (docs/daemon.md, "Motors and lifecycle").
      if (world.realistic && next === 'enabled' && mode !== 'enabled') commanded = copy(present);
      mode = next;
    },
    tick(nowS, wallS) {
      tracking.step(nowS, wallS, present.head);
      if (!moves()) return;
      const head = tracking.apply(commanded.head);
      // The IK has no answer for the blend: the daemon keeps the head's and the body's joints.
      const reachable = isReachable(head, commanded.bodyYaw);
      present = {
        head: reachable ? head : present.head,
        antennas: [...commanded.antennas],
        bodyYaw: reachable ? bodyYawFor(head, commanded.bodyYaw) : present.bodyYaw,
      };
    },
  };
  return world;
}
