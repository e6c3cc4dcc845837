/**
 * Builds the cockpit's RobotState (degrees, millimetres) from the feed's latest sample. Called
 * once per broadcast tick and shared by every viewer, never once per viewer.
 */
import type { DaemonInfo, DoaReading, MotorMode, RobotState, ServiceState, SystemStats } from '../contract/state.ts';
import { round, toDeg, toHeadPose } from './units.ts';
import type { FeedSnapshot } from './state-feed.ts';
import type { WireDoa } from './wire.ts';

export interface StateExtras {
  simulated: boolean;
  system: SystemStats;
  services: Record<string, ServiceState>;
  tracking?: unknown;
}

/** Returns undefined until the daemon has sent a first sample. */
export function buildRobotState(feed: FeedSnapshot, extras: StateExtras, now: number): RobotState | undefined {
  const sample = feed.sample;
  if (!sample) return undefined;
  const s = sample.state;
  const antennas = s.antennas_position ?? [0, 0];
  const state: RobotState = {
    timestamp: s.timestamp,
    ageMs: Math.max(0, now - sample.receivedAt),
    head: s.head_pose ? toHeadPose(s.head_pose) : { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: 0 },
    bodyYaw: round(toDeg(s.body_yaw ?? 0), 2),
    antennas: { right: round(toDeg(antennas[0]), 2), left: round(toDeg(antennas[1]), 2) },
    motorMode: (s.control_mode as MotorMode | null) ?? null,
    loopHz: feed.hz,
    daemon: daemonInfo(feed, extras.simulated),
    system: extras.system,
    services: extras.services,
    doa: s.doa ? toDoa(s.doa) : null,
  };
  if (extras.tracking !== undefined) state.tracking = extras.tracking;
  return state;
}

export function daemonInfo(feed: FeedSnapshot, simulated: boolean): DaemonInfo {
  return {
    presence: feed.presence,
    state: feed.status?.state ?? null,
    version: feed.status?.version ?? null,
    robotName: feed.status?.robot_name ?? null,
    simulated,
  };
}

/**
 * The daemon's angle runs 0 = left, π/2 = front, π = right (daemon-api.md §3.1). People read a
 * bearing from straight ahead, positive to the robot's left.
 */
export function toDoa(doa: WireDoa): DoaReading {
  return { bearing: round(toDeg(Math.PI / 2 - doa.angle), 1), speech: doa.speech_detected };
}
