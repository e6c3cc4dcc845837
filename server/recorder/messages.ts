/**
 * What goes on each channel, built from the cockpit's own values. Foxglove's schemas want
 * metres, a quaternion and `{sec, nsec}` stamps; the cockpit's state is in millimetres and
 * degrees, so the head pose is converted here once.
 */
import type { RobotState } from '../contract/state.ts';

export interface Stamp {
  sec: number;
  nsec: number;
}

export function stampOf(ms: number): Stamp {
  const sec = Math.floor(ms / 1000);
  return { sec, nsec: Math.round((ms - sec * 1000) * 1e6) };
}

const RAD = Math.PI / 180;

/** Extrinsic x-y-z (roll, pitch, yaw) in degrees as a unit quaternion. */
export function quaternionOf(
  rollDeg: number,
  pitchDeg: number,
  yawDeg: number,
): { x: number; y: number; z: number; w: number } {
  const [cr, sr] = [Math.cos((rollDeg * RAD) / 2), Math.sin((rollDeg * RAD) / 2)];
  const [cp, sp] = [Math.cos((pitchDeg * RAD) / 2), Math.sin((pitchDeg * RAD) / 2)];
  const [cy, sy] = [Math.cos((yawDeg * RAD) / 2), Math.sin((yawDeg * RAD) / 2)];
  return {
    w: cr * cp * cy + sr * sp * sy,
    x: sr * cp * cy - cr * sp * sy,
    y: cr * sp * cy + sr * cp * sy,
    z: cr * cp * sy - sr * sp * cy,
  };
}

/** The head pose of a state as `foxglove.PoseInFrame` in the robot's body frame. */
export function headPoseMessage(state: Pick<RobotState, 'head'>, ms: number): object {
  const { head } = state;
  return {
    timestamp: stampOf(ms),
    frame_id: 'body',
    pose: {
      position: { x: head.x / 1000, y: head.y / 1000, z: head.z / 1000 },
      orientation: quaternionOf(head.roll, head.pitch, head.yaw),
    },
  };
}

/** A JPEG as `foxglove.CompressedImage` (JSON encoding carries the bytes as base64). */
export function compressedImageMessage(jpeg: Buffer, capturedAt: number): object {
  return { timestamp: stampOf(capturedAt), frame_id: 'camera', data: jpeg.toString('base64'), format: 'jpeg' };
}
