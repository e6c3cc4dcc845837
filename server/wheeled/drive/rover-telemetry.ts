/**
 * Reads a rover's GET /data body into the cockpit's telemetry. Two shapes are understood: a
 * bridge that reports odometry (x, y in metres, heading in degrees counter-clockwise), and the
 * FrodoBots SDK's GPS fix (latitude, longitude, and `orientation` read as a compass bearing in
 * degrees, clockwise from north), projected onto a local plane around the first fix. Speeds the
 * body does not carry are taken from the command in force. A reading without a usable fix (GPS
 * lost, or numbers out of their range) keeps the last pose.
 */
import type { BasePose, BaseTelemetry, DriveCommand } from './types.ts';

/** Mean Earth radius (m), enough for the few hundred metres a rover covers. */
const EARTH_RADIUS_M = 6_371_000;

/**
 * Where x = y = 0 and heading 0 lie: the first GPS fix (x/y are metres east/north of it), or
 * the odometry values at the last reset. Filled in by the first reading after a reset.
 */
export interface OdometryOrigin {
  lat?: number;
  lon?: number;
  /** Odometry offsets (bridge shape), radians for heading. */
  x?: number;
  y?: number;
  heading?: number;
  /** Set by a reset: the next reading becomes the origin. */
  pending?: boolean;
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
/** A reading within ±limit; beyond it the rover is reporting something else, read as absent. */
const within = (value: unknown, limit: number): number | undefined => {
  const n = num(value);
  return n !== undefined && Math.abs(n) <= limit ? n : undefined;
};
/** Odometry farther than this from its zero (10,000 km) is not a rover's; differences stay finite. */
const ODOMETRY_LIMIT_M = 1e7;
/** Degrees beyond this (thousands of turns) are not a heading; radians of them stay finite. */
const DEGREES_LIMIT = 1e6;
const rad = (deg: number) => (deg * Math.PI) / 180;

export function telemetryFromData(
  data: unknown,
  context: {
    origin: OdometryOrigin;
    commanded: DriveCommand;
    limits: { maxLinear: number; maxAngular: number };
    at: number;
    /** The pose of the last reading: a reading without a usable fix keeps it, not the origin. */
    previous?: BasePose;
  },
): BaseTelemetry {
  const body = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  let pose = context.previous ?? { x: 0, y: 0, heading: 0 };
  const [x, y, heading] = [
    within(body.x, ODOMETRY_LIMIT_M),
    within(body.y, ODOMETRY_LIMIT_M),
    within(body.heading, DEGREES_LIMIT),
  ];
  const [lat, lon, bearing] = [
    within(body.latitude, 90),
    within(body.longitude, 180),
    within(body.orientation, DEGREES_LIMIT),
  ];
  const origin = context.origin;
  if (x !== undefined && y !== undefined) {
    if (origin.pending || origin.x === undefined)
      Object.assign(origin, { x, y, heading: rad(heading ?? 0), pending: false });
    pose = relative(
      { x, y, heading: rad(heading ?? 0) },
      origin as Required<Pick<OdometryOrigin, 'x' | 'y' | 'heading'>>,
    );
  } else if (lat !== undefined && lon !== undefined) {
    if (origin.pending || origin.lat === undefined) Object.assign(origin, { lat, lon, pending: false });
    pose = {
      x: rad(lon - (origin.lon as number)) * EARTH_RADIUS_M * Math.cos(rad(origin.lat as number)),
      y: rad(lat - (origin.lat as number)) * EARTH_RADIUS_M,
      heading: rad(90 - (bearing ?? 90)),
    };
  }
  const battery = num(body.battery);
  return {
    pose,
    linear: num(body.speed) ?? context.commanded.linear * context.limits.maxLinear,
    angular: context.commanded.angular * context.limits.maxAngular,
    wheels: null,
    battery: battery === undefined ? null : Math.max(0, Math.min(100, battery)),
    at: context.at,
  };
}

/** A pose seen from an origin pose: shifted, then turned by the origin's heading. */
function relative(p: { x: number; y: number; heading: number }, o: { x: number; y: number; heading: number }) {
  const dx = p.x - o.x;
  const dy = p.y - o.y;
  const c = Math.cos(-o.heading);
  const s = Math.sin(-o.heading);
  return { x: dx * c - dy * s, y: dx * s + dy * c, heading: p.heading - o.heading };
}
