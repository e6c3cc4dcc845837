/**
 * The top-down map: world metres (x east, y north, heading counter-clockwise from +x) onto an
 * SVG whose y grows downwards. The view keeps the base and its whole trail in sight, at least
 * MIN_SPAN metres across so standing still does not zoom in on nothing.
 */

export const MAP_SIZE = 240;
export const MIN_SPAN = 3;
const MARGIN = 0.5;

export interface MapView {
  /** Pixels per metre. */
  scale: number;
  /** World point at the map's centre. */
  cx: number;
  cy: number;
}

export function fitView(points: ReadonlyArray<readonly [number, number]>, size = MAP_SIZE): MapView {
  if (points.length === 0) return { scale: size / MIN_SPAN, cx: 0, cy: 0 };
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const span = Math.max(MIN_SPAN, maxX - minX + 2 * MARGIN, maxY - minY + 2 * MARGIN);
  return { scale: size / span, cx: (minX + maxX) / 2, cy: (minY + maxY) / 2 };
}

/** SVG coordinates of a world point. */
export function toMap(view: MapView, x: number, y: number, size = MAP_SIZE): [number, number] {
  return [round1(size / 2 + (x - view.cx) * view.scale), round1(size / 2 - (y - view.cy) * view.scale)];
}

/** The `points` attribute of the trail polyline. */
export function trailPoints(view: MapView, trail: ReadonlyArray<readonly [number, number]>, size = MAP_SIZE): string {
  return trail.map(([x, y]) => toMap(view, x, y, size).join(',')).join(' ');
}

/** SVG rotation (clockwise degrees) that turns an arrow drawn pointing right to the heading. */
export function headingRotation(headingDeg: number): number {
  return round1(-headingDeg);
}

/** Grid lines every metre across the view, in SVG coordinates. */
export function gridLines(view: MapView, size = MAP_SIZE): { x: number[]; y: number[] } {
  const half = size / 2 / view.scale;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let m = Math.ceil(view.cx - half); m <= view.cx + half; m += 1) xs.push(toMap(view, m, 0, size)[0]);
  for (let m = Math.ceil(view.cy - half); m <= view.cy + half; m += 1) ys.push(toMap(view, 0, m, size)[1]);
  return { x: xs, y: ys };
}

/** The map's accessible name: where the base is, in words a screen reader can say. */
export function mapLabel(pose: { x: number; y: number; heading: number }): string {
  return `Map: base at x ${pose.x.toFixed(2)} m, y ${pose.y.toFixed(2)} m, heading ${Math.round(pose.heading)}°`;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Adds a position to a trail kept in the page (state frames after the first carry no trail). */
export function extendTrail(trail: Array<[number, number]>, x: number, y: number, max = 600): Array<[number, number]> {
  const last = trail.at(-1);
  if (last && Math.hypot(last[0] - x, last[1] - y) < 0.03) return trail;
  const next = [...trail, [x, y] as [number, number]];
  return next.length > max ? next.slice(-max) : next;
}
