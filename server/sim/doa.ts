/**
 * Direction of arrival from a simulated XVF3800 mic array in the head (docs/daemon.md, "State").
 * The 1.10 daemon serves DoA from a cache: a read registers demand and starts a 10 Hz poller,
 * so the first read after 60 s without demand is `null` and values follow ~100 ms later.
 * Angle convention: 0 = left, π/2 = front, π = right; a linear array cannot tell front from
 * back, so a speaker behind the head reads as its mirror image in front.
 */

export interface Speaker {
  /** Degrees in the world, 0 = in front of the robot at rest, + to its left. */
  bearing: number;
  speaking: boolean;
}

export interface DoaReading {
  angle: number;
  speech_detected: boolean;
}

export interface Doa {
  speaker: Speaker;
  /** `headYaw` in radians; the array turns with the head. */
  read(nowS: number, headYaw: number): DoaReading | null;
}

const IDLE_S = 60;
const FIRST_VALUE_S = 0.1;
const POLL_S = 0.1;
const NOISE_DEG = 3;

/** Box-Muller, clipped at 3σ so a reading is never wildly off. */
function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  const g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return Math.max(-3, Math.min(3, g));
}

export function doaAngle(bearingDeg: number, headYawRad: number, noiseDeg = 0): number {
  let rel = bearingDeg - (headYawRad * 180) / Math.PI;
  rel = ((((rel + 180) % 360) + 360) % 360) - 180;
  if (rel > 90) rel = 180 - rel;
  if (rel < -90) rel = -180 - rel;
  const angle = ((90 - rel + noiseDeg) * Math.PI) / 180;
  return Math.max(0, Math.min(Math.PI, angle));
}

export function createDoa(random: () => number = Math.random): Doa {
  let lastDemand: number | null = null;
  let pollStart = 0;
  let cached: { at: number; value: DoaReading } | null = null;

  return {
    speaker: { bearing: 0, speaking: false },
    read(nowS, headYaw) {
      if (lastDemand === null || nowS - lastDemand > IDLE_S) {
        pollStart = nowS;
        cached = null;
      }
      lastDemand = nowS;
      if (nowS - pollStart < FIRST_VALUE_S) return null;
      if (!cached || nowS - cached.at >= POLL_S) {
        const angle = doaAngle(this.speaker.bearing, headYaw, gaussian(random) * NOISE_DEG);
        cached = { at: nowS, value: { angle, speech_detected: this.speaker.speaking } };
      }
      return { ...cached.value };
    },
  };
}
