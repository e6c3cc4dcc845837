/** The rows of the pose card, grouped as a person thinks of the robot: head, antennas, body. */
import type { RobotState } from '../../../../server/contract/index.ts';
import { formatDegrees, formatMillimetres, motorModeLabel } from './pose-format.ts';

export interface Readout {
  key: string;
  /** Short label shown in the row. */
  label: string;
  /** Full name for assistive technology and tests: "Head yaw", "Left antenna". */
  name: string;
  value: string;
}

export interface ReadoutGroup {
  title: string;
  rows: Readout[];
}

type PoseFields = Pick<RobotState, 'head' | 'antennas' | 'bodyYaw' | 'motorMode'>;

export function poseReadouts(state: PoseFields | null): ReadoutGroup[] {
  const head = state?.head;
  return [
    {
      title: 'Head rotation',
      rows: [
        { key: 'head-roll', label: 'Roll', name: 'Head roll', value: formatDegrees(head?.roll) },
        { key: 'head-pitch', label: 'Pitch', name: 'Head pitch', value: formatDegrees(head?.pitch) },
        { key: 'head-yaw', label: 'Yaw', name: 'Head yaw', value: formatDegrees(head?.yaw) },
      ],
    },
    {
      title: 'Head position',
      rows: [
        { key: 'head-x', label: 'X fwd', name: 'Head x', value: formatMillimetres(head?.x) },
        { key: 'head-y', label: 'Y left', name: 'Head y', value: formatMillimetres(head?.y) },
        { key: 'head-z', label: 'Z up', name: 'Head z', value: formatMillimetres(head?.z) },
      ],
    },
    {
      title: 'Antennas',
      rows: [
        { key: 'antenna-right', label: 'Right', name: 'Right antenna', value: formatDegrees(state?.antennas.right) },
        { key: 'antenna-left', label: 'Left', name: 'Left antenna', value: formatDegrees(state?.antennas.left) },
      ],
    },
    {
      title: 'Body',
      rows: [
        { key: 'body-yaw', label: 'Yaw', name: 'Body yaw', value: formatDegrees(state?.bodyYaw) },
        {
          key: 'motor-mode',
          label: 'Motors',
          name: 'Motor mode',
          value: state ? motorModeLabel(state.motorMode) : '—',
        },
      ],
    },
  ];
}
