/**
 * Where things are in the camera picture. The tracker reports the face centre normalised to
 * −1..1 (x right, y down); a click is turned into the same coordinates and then into a head
 * pose through a pinhole model of the head camera (about 65° wide and 50° tall).
 */

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Point {
  /** −1 at the left edge, +1 at the right. */
  x: number;
  /** −1 at the top edge, +1 at the bottom. */
  y: number;
}

export interface FieldOfView {
  horizontal: number;
  vertical: number;
}

export const HEAD_CAMERA_FOV: Readonly<FieldOfView> = Object.freeze({ horizontal: 65, vertical: 50 });

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;
const round1 = (v: number) => Math.round(v * 10) / 10 || 0;

/** A point in page pixels as normalised picture coordinates; null outside the picture. */
export function pointInPicture(clientX: number, clientY: number, box: Rect): Point | null {
  if (box.width <= 0 || box.height <= 0) return null;
  const x = ((clientX - box.left) / box.width) * 2 - 1;
  const y = ((clientY - box.top) / box.height) * 2 - 1;
  return Math.abs(x) <= 1 && Math.abs(y) <= 1 ? { x, y } : null;
}

/**
 * The head pose that centres `point`, from the pose the picture was taken at. Positive yaw turns
 * the head left (so a point right of centre lowers it), positive pitch tilts it down (so a point
 * below centre raises it). The angles are exact for a pinhole camera: atan(x · tan(fov/2)).
 */
export function lookTarget(
  point: Point,
  head: { yaw: number; pitch: number },
  fov: FieldOfView = HEAD_CAMERA_FOV,
): { yaw: number; pitch: number } {
  const yawOffset = deg(Math.atan(point.x * Math.tan(rad(fov.horizontal / 2))));
  const pitchOffset = deg(Math.atan(point.y * Math.tan(rad(fov.vertical / 2))));
  return { yaw: round1(head.yaw - yawOffset), pitch: round1(head.pitch + pitchOffset) };
}

/** The face marker as percentages of the picture: centred on the face, `size` of the picture's width. */
export function faceMarker(point: Point, size = 0.16): { left: number; top: number; width: number } {
  const clamp = (v: number) => Math.min(1, Math.max(-1, v));
  return { left: ((clamp(point.x) + 1) / 2) * 100, top: ((clamp(point.y) + 1) / 2) * 100, width: size * 100 };
}

/** The file name of a downloaded snapshot, in local time: robot-snapshot-20260101-093005.jpg */
export function snapshotName(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}`;
  return `robot-snapshot-${day}-${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}.jpg`;
}
