/**
 * Daemon-side face tracking, simulated (docs/daemon.md, "Media"). The face is a direction in the
 * world set through /sim; the "camera" sits in the head, so what it reports depends on where the
 * head points. Like the real backend: the aim eases toward the face (α = 0.15 per tick), a
 * face lost for 2 s recentres the aim, and the aim is blended into the commanded head pose
 * with the requested weight once a face has been seen.
 */
import { blendPose, IDENTITY_POSE, poseFromXyzrpy, xyzrpyFromPose, type RigidPose } from './pose.ts';

export interface FaceTarget {
  detected: boolean;
  x: number | null;
  y: number | null;
  roll: number | null;
  ts: number | null;
}

/** A face direction in the world, radians: yaw + to the robot's left, pitch + below (head-pitch sign). */
export interface WorldFace {
  yaw: number;
  pitch: number;
}

const DEG = Math.PI / 180;
/** Field of view of the simulated head camera. */
export const HFOV = 65 * DEG;
export const VFOV = 50 * DEG;
const ALPHA = 0.15;
const LOST_TIMEOUT_S = 2;

export const NO_FACE: Readonly<FaceTarget> = Object.freeze({ detected: false, x: null, y: null, roll: null, ts: null });

function wrap(angle: number): number {
  return Math.atan2(Math.sin(angle), Math.cos(angle));
}

/** Where the face appears in the head camera image, normalised to −1..1 (x right, y down). */
export function observeFace(face: WorldFace | null, head: RigidPose, ts: number): FaceTarget {
  if (!face) return { ...NO_FACE, ts };
  const h = xyzrpyFromPose(head);
  const relYaw = wrap(face.yaw - h.yaw);
  const x = 0 - relYaw / (HFOV / 2);
  const y = (face.pitch - h.pitch) / (VFOV / 2);
  if (Math.abs(x) > 1 || Math.abs(y) > 1) return { ...NO_FACE, ts };
  return { detected: true, x, y, roll: -h.roll, ts };
}

/** The aim's pitch is kept within this (rad) either way: 43°, a pitch the head reaches alone. */
const AIM_PITCH_MAX = 0.75;

function lookAt(face: WorldFace): RigidPose {
  const pitch = Math.max(-AIM_PITCH_MAX, Math.min(AIM_PITCH_MAX, face.pitch));
  return poseFromXyzrpy({ x: 0, y: 0, z: 0, roll: 0, pitch, yaw: face.yaw });
}

export interface Tracking {
  readonly enabled: boolean;
  readonly requestedWeight: number;
  face: WorldFace | null;
  enable(weight: number): void;
  disable(): void;
  report(): FaceTarget;
  /** One control tick: observe, update the latched target and ease the aim. */
  step(nowS: number, wallS: number, head: RigidPose): void;
  /** The pose the IK receives: the commanded head blended with the aim. */
  apply(commanded: RigidPose): RigidPose;
}

export function createTracking(): Tracking {
  let enabled = false;
  let requested = 1;
  let active = 0;
  let aim: RigidPose | null = null;
  let target: RigidPose | null = null;
  let lastSeen: number | null = null;
  let latest: FaceTarget = { ...NO_FACE };

  const clear = (): void => {
    aim = null;
    target = null;
    active = 0;
    lastSeen = null;
    latest = { ...NO_FACE };
  };

  return {
    get enabled() {
      return enabled;
    },
    get requestedWeight() {
      return requested;
    },
    face: null,
    enable(weight) {
      requested = Math.max(0, Math.min(1, weight));
      enabled = true;
      if (requested === 0) clear();
    },
    disable() {
      enabled = false;
      clear();
    },
    report: () => ({ ...latest }),
    step(nowS, wallS, head) {
      if (!enabled || requested <= 0) return;
      latest = observeFace(this.face, head, wallS);
      if (latest.detected && this.face) {
        lastSeen = nowS;
        active = requested;
        target = lookAt(this.face);
      }
      if (lastSeen !== null && nowS - lastSeen >= LOST_TIMEOUT_S) target = IDENTITY_POSE;
      if (!target) return;
      aim = blendPose(aim ?? head, target, ALPHA);
    },
    // At weight 1 the aim replaces the commanded pose entirely, so set_target still answers
    // "ok" but has no visible effect: the real backend skips the IK update in that case too.
    apply: (commanded) => (aim && active > 0 ? blendPose(commanded, aim, active) : commanded),
  };
}
