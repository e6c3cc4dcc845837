/**
 * Where to draw things in the two pose views. Angles follow the contract: yaw positive to the
 * robot's left (counter-clockwise seen from above), pitch positive nose-down (a right-handed
 * rotation about the y axis, which points left). SVG's y axis points down.
 */

export interface Point {
  x: number;
  y: number;
}

const RAD = Math.PI / 180;

const round = (value: number) => Math.round(value * 100) / 100 + 0;

/** Top view, forward drawn up: the tip of a ray of length `r` at a yaw angle. */
export function yawPoint(center: Point, r: number, yawDeg: number): Point {
  return { x: round(center.x - r * Math.sin(yawDeg * RAD)), y: round(center.y - r * Math.cos(yawDeg * RAD)) };
}

/** Side view from the robot's right, forward drawn right: the tip of a gaze ray at a pitch. */
export function pitchPoint(center: Point, r: number, pitchDeg: number): Point {
  return { x: round(center.x + r * Math.cos(pitchDeg * RAD)), y: round(center.y + r * Math.sin(pitchDeg * RAD)) };
}

/**
 * Antenna needles on the side view: upright at 0°, tipping clockwise in the drawing for a positive
 * angle. It is a gauge of each antenna's angle, not a projection (both would overlap in a true
 * side view).
 */
export function antennaPoint(base: Point, length: number, angleDeg: number): Point {
  return { x: round(base.x + length * Math.sin(angleDeg * RAD)), y: round(base.y - length * Math.cos(angleDeg * RAD)) };
}

/** Scales millimetres of head travel to drawing units, clamped so the head stays in the frame. */
export function travel(mm: number | null | undefined, unitsPerMm: number, limit: number): number {
  if (mm === null || mm === undefined || !Number.isFinite(mm)) return 0;
  return round(Math.max(-limit, Math.min(limit, mm * unitsPerMm)));
}
