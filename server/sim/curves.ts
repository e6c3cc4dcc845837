/**
 * Time-warp curves of the daemon's interpolation techniques (docs/daemon.md, "Moves"). REST gotos
 * validate the name but always run min-jerk; the other curves shape synthetic recorded moves.
 */

export const INTERPOLATIONS = ['linear', 'minjerk', 'ease_in_out', 'cartoon'] as const;
export type Interpolation = (typeof INTERPOLATIONS)[number];

const C1 = 1.70158;
const C2 = C1 * 1.525;

/** Maps normalised time t ∈ [0, 1] to progress; cartoon overshoots outside [0, 1] in between. */
export function timeCurve(method: Interpolation, t: number): number {
  const u = Math.max(0, Math.min(1, t));
  switch (method) {
    case 'linear':
      return u;
    case 'minjerk':
      return 10 * u ** 3 - 15 * u ** 4 + 6 * u ** 5;
    case 'ease_in_out':
      return u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
    case 'cartoon':
      return u < 0.5
        ? ((2 * u) ** 2 * ((C2 + 1) * 2 * u - C2)) / 2
        : ((2 * u - 2) ** 2 * ((C2 + 1) * (2 * u - 2) + C2) + 2) / 2;
  }
}

export function minJerk(t: number): number {
  return timeCurve('minjerk', t);
}
