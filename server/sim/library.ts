/**
 * Synthetic recorded moves. The real trajectories live in Hugging Face datasets the simulator
 * cannot reach (docs/daemon.md, "Move libraries"), so each move is generated deterministically from its name:
 * sums of sines on the head angles, height, antennas (and body yaw for dances), shaped by a
 * per-family mood ("yes" nods pitch, "no" shakes yaw, laughing bounces, sad droops, dances
 * sway) and faded in and out so every move starts and ends at the neutral pose.
 */
import { minJerk } from './curves.ts';
import { INIT_ANTENNAS } from './kinematics.ts';
import { DANCES_DATASET, DATASETS, EMOTIONS_DATASET } from './library-names.ts';
import type { BodyTargetInput } from './models.ts';
import { poseFromXyzrpy } from './pose.ts';
import { moodFor, type Mood } from './moods.ts';

export interface RecordedMove {
  dataset: string;
  name: string;
  /** Seconds. */
  duration: number;
  /** The sidecar sound started at t = 0, if the dataset has one. */
  sound: string | null;
  sample(t: number): BodyTargetInput;
}

export function listMoves(dataset: string): readonly string[] | undefined {
  return DATASETS[dataset];
}

/** FNV-1a, then mulberry32: a stable stream of numbers per move name. */
function seededRandom(key: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Wave = (t: number) => number;

function wave(rand: () => number, tempo: number, amp: number): Wave {
  const f = tempo * (0.85 + 0.3 * rand());
  const [p1, p2] = [rand() * 2 * Math.PI, rand() * 2 * Math.PI];
  return (t) => amp * (0.75 * Math.sin(2 * Math.PI * f * t + p1) + 0.25 * Math.sin(2 * Math.PI * 2.3 * f * t + p2));
}

function envelope(duration: number): (t: number) => number {
  const ramp = Math.min(0.6, duration / 4);
  return (t) => minJerk(Math.min(1, t / ramp)) * minJerk(Math.min(1, (duration - t) / ramp));
}

function clamp(v: number, limit: number): number {
  return Math.max(-limit, Math.min(limit, v));
}

function build(dataset: string, name: string, mood: Mood): RecordedMove {
  const rand = seededRandom(`${dataset}/${name}`);
  const duration = Math.round((mood.duration[0] + (mood.duration[1] - mood.duration[0]) * rand()) * 100) / 100;
  const env = envelope(duration);
  const w = {
    roll: wave(rand, mood.tempo, mood.amp.roll),
    pitch: wave(rand, mood.tempo, mood.amp.pitch),
    yaw: wave(rand, mood.tempo, mood.amp.yaw),
    z: wave(rand, mood.tempo, mood.amp.z),
    body: wave(rand, mood.tempo / 2, mood.amp.body),
    right: wave(rand, mood.tempo * mood.antennas.speed, mood.antennas.amp),
    left: wave(rand, mood.tempo * mood.antennas.speed, mood.antennas.amp),
  };
  const sample = (t: number): BodyTargetInput => {
    const e = env(Math.max(0, Math.min(duration, t)));
    const spread = INIT_ANTENNAS[1] + (mood.antennas.spread - INIT_ANTENNAS[1]) * e;
    const head = poseFromXyzrpy({
      x: 0,
      y: 0,
      z: clamp((mood.posture.z + w.z(t)) * e, 0.03),
      roll: clamp(w.roll(t) * e, 0.6),
      pitch: clamp((mood.posture.pitch + w.pitch(t)) * e, 0.6),
      yaw: w.yaw(t) * e,
    });
    const antennas: [number, number] = [-spread + w.right(t) * e, spread + w.left(t) * e];
    return mood.amp.body > 0 ? { head, antennas, bodyYaw: w.body(t) * e } : { head, antennas };
  };
  const sound = dataset === EMOTIONS_DATASET ? `${name}.wav` : null;
  return { dataset, name, duration, sound, sample };
}

/** undefined when the dataset or the move is unknown. */
export function recordedMove(dataset: string, name: string): RecordedMove | undefined {
  const names = listMoves(dataset);
  if (!names?.includes(name)) return undefined;
  return build(dataset, name, moodFor(name, dataset === DANCES_DATASET));
}
