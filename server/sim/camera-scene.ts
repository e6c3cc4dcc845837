/**
 * The simulated head camera's view, as SVG: a room around the robot (wall, floor, a window, a
 * shelf, a picture, the room's corners) and the /sim/face person, seen from the current head
 * pose. Everything sits at a world direction (yaw + left, pitch + below, as /sim/face), and the
 * projection is the one the tracking model uses (tracking.ts observeFace: 65°×50°, linear in
 * angle), so where the person appears in the picture is where face tracking says it is.
 */
import { HFOV, VFOV, type WorldFace } from './tracking.ts';

export interface SceneView {
  /** Head orientation, radians. */
  yaw: number;
  pitch: number;
  roll: number;
  face: WorldFace | null;
  /** Wall-clock milliseconds, printed in the corner so latency can be read off a screen. */
  clockMs: number;
  width: number;
  height: number;
}

const DEG = Math.PI / 180;
/** The floor meets the wall a little below eye level. */
const HORIZON_PITCH = 14 * DEG;

interface Projector {
  x(yaw: number): number;
  y(pitch: number): number;
  /** Pixels per radian across; used for the sizes of round things so they stay round. */
  scale: number;
  /** True when the direction is in front of the camera (within ±100° of the head yaw). */
  visible(yaw: number): boolean;
}

function wrap(angle: number): number {
  return Math.atan2(Math.sin(angle), Math.cos(angle));
}

function projector(view: SceneView): Projector {
  const sx = view.width / HFOV;
  const sy = view.height / VFOV;
  return {
    // A direction to the robot's left appears on the left of the picture (observeFace: x = −rel/(H/2)).
    x: (yaw) => view.width / 2 - wrap(yaw - view.yaw) * sx,
    y: (pitch) => view.height / 2 + (pitch - view.pitch) * sy,
    scale: sx,
    visible: (yaw) => Math.abs(wrap(yaw - view.yaw)) < 100 * DEG,
  };
}

const f = (n: number): string => n.toFixed(1);

/** A wall-aligned rectangle between two yaws (either order) and two pitches (top above bottom). */
function rect(p: Projector, yawA: number, yawB: number, top: number, bottom: number, style: string): string {
  if (!p.visible((yawA + yawB) / 2)) return '';
  const x = Math.min(p.x(yawA), p.x(yawB));
  const y = p.y(top);
  return `<rect x="${f(x)}" y="${f(y)}" width="${f(Math.abs(p.x(yawB) - p.x(yawA)))}" height="${f(p.y(bottom) - y)}" ${style}/>`;
}

function roomShell(view: SceneView, p: Projector): string {
  // Oversized so that a rolled head never shows the picture's edge.
  const w = view.width;
  const h = view.height;
  const floorY = p.y(HORIZON_PITCH);
  const corners = [80, 150, -80, -150]
    .map((deg) => deg * DEG)
    .filter((yaw) => p.visible(yaw))
    .map(
      (yaw) =>
        `<line x1="${f(p.x(yaw))}" y1="${-h}" x2="${f(p.x(yaw))}" y2="${f(floorY)}" stroke="#a99c86" stroke-width="3"/>`,
    );
  const boards = Array.from({ length: 24 }, (_, i) => (i * 15 - 180) * DEG)
    .filter((yaw) => p.visible(yaw))
    .map((yaw) => {
      const x = p.x(yaw);
      return `<line x1="${f(x)}" y1="${f(floorY)}" x2="${f(w / 2 + (x - w / 2) * 3)}" y2="${2 * h}" stroke="#6b4e36" stroke-width="2"/>`;
    });
  return [
    `<rect x="${-w}" y="${-h}" width="${3 * w}" height="${3 * h}" fill="#e6dccb"/>`,
    `<rect x="${-w}" y="${f(floorY)}" width="${3 * w}" height="${3 * h}" fill="#8a6a4c"/>`,
    `<rect x="${-w}" y="${f(floorY - 6)}" width="${3 * w}" height="6" fill="#f4efe6"/>`,
    ...corners,
    ...boards,
  ].join('');
}

/** A window on the left wall, sky and a hill outside, with its frame and sill. */
function windowOnWall(p: Projector): string {
  const [l, r, t, b] = [25 * DEG, 55 * DEG, -22 * DEG, 2 * DEG];
  if (!p.visible((l + r) / 2)) return '';
  const midX = (p.x(l) + p.x(r)) / 2;
  const midY = (p.y(t) + p.y(b)) / 2;
  return [
    rect(p, l, r, t, b, 'fill="#9fd0f2"'),
    rect(p, l, r, b - 7 * DEG, b, 'fill="#7fb069"'),
    rect(p, l, r, t, b, 'fill="none" stroke="#ffffff" stroke-width="10"'),
    `<line x1="${f(midX)}" y1="${f(p.y(t))}" x2="${f(midX)}" y2="${f(p.y(b))}" stroke="#ffffff" stroke-width="8"/>`,
    `<line x1="${f(p.x(l))}" y1="${f(midY)}" x2="${f(p.x(r))}" y2="${f(midY)}" stroke="#ffffff" stroke-width="8"/>`,
    rect(p, l - 1 * DEG, r + 1 * DEG, b, b + 2.5 * DEG, 'fill="#f7f3ea"'),
  ].join('');
}

const BOOK_COLOURS = ['#b23a48', '#2f6690', '#f2a541', '#3a7d44', '#6d597a', '#d1495b', '#00798c'];

/** A bookshelf on the right wall: two planks and rows of coloured spines. */
function shelf(p: Projector): string {
  const [l, r] = [-70 * DEG, -35 * DEG];
  if (!p.visible((l + r) / 2)) return '';
  const parts: string[] = [rect(p, l, r, -18 * DEG, 13 * DEG, 'fill="#5c4033"')];
  for (const [top, bottom] of [
    [-16, -2],
    [0, 11],
  ] as const) {
    parts.push(rect(p, l + 1 * DEG, r - 1 * DEG, top * DEG, bottom * DEG, 'fill="#3b2a20"'));
    for (let i = 0; i < 14; i += 1) {
      const a = l + (1.5 + i * 2.3) * DEG;
      const height = (bottom - top - 2 - ((i * 7) % 4)) * DEG;
      const colour = BOOK_COLOURS[(i * 3 + (top < 0 ? 0 : 4)) % BOOK_COLOURS.length] ?? '#888888';
      parts.push(rect(p, a, a + 1.9 * DEG, bottom * DEG - height, bottom * DEG, `fill="${colour}"`));
    }
  }
  return parts.join('');
}

/** A framed picture (mountains, sun) straight ahead and up: the view's reference for "front". */
function picture(p: Projector): string {
  const [l, r, t, b] = [-9 * DEG, 9 * DEG, -24 * DEG, -11 * DEG];
  if (!p.visible(0)) return '';
  const [x1, x2] = [Math.min(p.x(l), p.x(r)), Math.max(p.x(l), p.x(r))];
  const [y1, y2] = [p.y(t), p.y(b)];
  return [
    rect(p, l, r, t, b, 'fill="#fdf6e3" stroke="#7a5230" stroke-width="8"'),
    `<polygon points="${f(x1 + 8)},${f(y2 - 6)} ${f((x1 + x2) / 2 - 20)},${f(y1 + 24)} ${f((x1 + x2) / 2 + 10)},${f(y2 - 6)}" fill="#5b7db1"/>`,
    `<polygon points="${f((x1 + x2) / 2 - 10)},${f(y2 - 6)} ${f(x2 - 40)},${f(y1 + 34)} ${f(x2 - 8)},${f(y2 - 6)}" fill="#3d5a80"/>`,
    `<circle cx="${f(x2 - 30)}" cy="${f(y1 + 20)}" r="9" fill="#f4a261"/>`,
  ].join('');
}

/** Head and shoulders with eyes and a smile, centred on the face direction. */
function person(p: Projector, face: WorldFace | null): string {
  if (!face || !p.visible(face.yaw)) return '';
  const cx = p.x(face.yaw);
  const cy = p.y(face.pitch);
  const r = 5 * DEG * p.scale;
  const eyeDx = r * 0.38;
  const eyeY = cy - r * 0.15;
  return [
    `<path d="M${f(cx - 2.6 * r)},${f(cy + 4.5 * r)} Q${f(cx - 2.4 * r)},${f(cy + 1.3 * r)} ${f(cx)},${f(cy + 1.25 * r)} Q${f(cx + 2.4 * r)},${f(cy + 1.3 * r)} ${f(cx + 2.6 * r)},${f(cy + 4.5 * r)} Z" fill="#2a6f97"/>`,
    `<rect x="${f(cx - 0.35 * r)}" y="${f(cy + 0.8 * r)}" width="${f(0.7 * r)}" height="${f(0.6 * r)}" fill="#e0ac8a"/>`,
    `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(r * 0.9)}" ry="${f(r)}" fill="#f1c27d"/>`,
    `<path d="M${f(cx - 0.92 * r)},${f(cy - 0.2 * r)} Q${f(cx)},${f(cy - 1.55 * r)} ${f(cx + 0.92 * r)},${f(cy - 0.2 * r)} Q${f(cx)},${f(cy - 0.8 * r)} ${f(cx - 0.92 * r)},${f(cy - 0.2 * r)} Z" fill="#4a3222"/>`,
    `<circle cx="${f(cx - eyeDx)}" cy="${f(eyeY)}" r="${f(r * 0.13)}" fill="#1d1d1d"/>`,
    `<circle cx="${f(cx + eyeDx)}" cy="${f(eyeY)}" r="${f(r * 0.13)}" fill="#1d1d1d"/>`,
    `<path d="M${f(cx - r * 0.4)},${f(cy + r * 0.4)} Q${f(cx)},${f(cy + r * 0.75)} ${f(cx + r * 0.4)},${f(cy + r * 0.4)}" stroke="#9b2c2c" stroke-width="${f(Math.max(2, r * 0.1))}" fill="none" stroke-linecap="round"/>`,
  ].join('');
}

function clockText(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}

/** Bits of the frame counter strip: the clock's milliseconds modulo 2^24 (about 4.7 hours). */
export const COUNTER_BITS = 24;
/** Side of one counter cell, pixels; big enough to survive H.264 at the simulator's quality. */
export const COUNTER_CELL = 16;

/**
 * A machine-readable clock along the top-left edge: COUNTER_BITS square cells, most significant
 * first, white for 1 and black for 0. A viewer reads it back from the decoded picture (the centre
 * pixel of each cell) and subtracts it from its own clock: glass-to-glass latency on one host.
 */
function counterStrip(ms: number): string {
  const value = Math.floor(ms) % 2 ** COUNTER_BITS;
  const cells = Array.from({ length: COUNTER_BITS }, (_, i) => {
    const bit = Math.floor(value / 2 ** (COUNTER_BITS - 1 - i)) % 2;
    return `<rect x="${i * COUNTER_CELL}" y="0" width="${COUNTER_CELL}" height="${COUNTER_CELL}" fill="${bit ? '#ffffff' : '#000000'}"/>`;
  });
  return cells.join('');
}

/** The whole picture as an SVG document of `width`×`height` pixels. */
export function renderSceneSvg(view: SceneView): string {
  const p = projector(view);
  const { width: w, height: h } = view;
  // Rolling the head turns the picture the other way round its centre.
  const roll = -view.roll / DEG;
  const heading = Math.round(view.yaw / DEG);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<g transform="rotate(${roll.toFixed(2)} ${w / 2} ${h / 2})">` +
    roomShell(view, p) +
    windowOnWall(p) +
    shelf(p) +
    picture(p) +
    person(p, view.face) +
    `</g>` +
    // The caption keeps to the right: the dashboard draws the head pose over the picture's bottom left.
    `<rect x="0" y="${h - 22}" width="${w}" height="22" fill="#000000" fill-opacity="0.45"/>` +
    `<text x="${w - 8}" y="${h - 6}" text-anchor="end" font-family="DejaVu Sans Mono, monospace" font-size="14" fill="#ffffff">SIM CAMERA  ${clockText(view.clockMs)}  yaw ${heading}°</text>` +
    counterStrip(view.clockMs) +
    `</svg>`
  );
}
