/** A daemon state sample with the head turned to `headYaw` (°, world frame) and all else neutral. */
import type { FullState } from '../../daemon/wire.ts';

const RAD = Math.PI / 180;

export function stateWithHeadYaw(headYaw: number): FullState {
  return {
    control_mode: 'enabled',
    head_pose: { x: 0, y: 0, z: 0, roll: 0, pitch: 0, yaw: headYaw * RAD },
    head_joints: null,
    body_yaw: 0,
    antennas_position: null,
    timestamp: '2026-11-21T12:00:00Z',
    passive_joints: null,
    doa: null,
  };
}
