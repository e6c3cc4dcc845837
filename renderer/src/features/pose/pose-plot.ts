/** What the head-pose plot draws and says: yaw, pitch and roll of each state frame, in degrees. */
import type { RobotState } from '../../../../server/contract/index.ts';
import { formatDegrees } from './pose-format.ts';

/** The last 30 s of the head's rotation. */
export const POSE_PLOT_SECONDS = 30;

export const POSE_SERIES = [
  { label: 'Yaw', colour: '--accent' },
  { label: 'Pitch', colour: '--antenna-right' },
  { label: 'Roll', colour: '--antenna-left' },
] as const;

export function poseValues(state: Pick<RobotState, 'head'>): [number, number, number] {
  return [state.head.yaw, state.head.pitch, state.head.roll];
}

/** The plot's text alternative: the latest values, or why there are none. */
export function poseSummary(latest: readonly (number | null)[] | null): string {
  if (!latest) return 'Waiting for the robot';
  return POSE_SERIES.map((s, i) => `${s.label} ${formatDegrees(latest[i])}`).join(', ');
}
