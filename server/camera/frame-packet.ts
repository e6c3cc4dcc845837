/**
 * The binary camera frame sent on /ws to a dashboard that asked for video (README-camera.md):
 *
 *   offset  size  field
 *   0       1     type: 1 = JPEG picture
 *   1       1     header length in bytes (16); the JPEG starts here
 *   2       2     reserved, 0
 *   4       4     seq, unsigned, big-endian
 *   8       8     capturedAt, float64 big-endian, milliseconds since the epoch
 *   16      …     the JPEG
 *
 * Binary, so the picture is not inflated by base64 and the browser can hand the bytes to
 * createImageBitmap directly; JSON frames on /ws stay text, so the two never mix.
 */
import type { CameraFrame } from './frame.ts';

export const FRAME_PACKET_JPEG = 1;
export const FRAME_PACKET_HEADER = 16;

export function encodeFramePacket(frame: CameraFrame & { jpeg: Buffer }): Buffer {
  const header = Buffer.alloc(FRAME_PACKET_HEADER);
  header.writeUInt8(FRAME_PACKET_JPEG, 0);
  header.writeUInt8(FRAME_PACKET_HEADER, 1);
  header.writeUInt32BE(frame.seq >>> 0, 4);
  header.writeDoubleBE(frame.capturedAt, 8);
  return Buffer.concat([header, frame.jpeg]);
}

export interface FramePacket {
  type: number;
  seq: number;
  capturedAt: number;
  jpeg: Buffer;
}

export function decodeFramePacket(packet: Buffer): FramePacket | undefined {
  if (packet.length < 2) return undefined;
  const headerLength = packet.readUInt8(1);
  if (headerLength < FRAME_PACKET_HEADER || packet.length < headerLength) return undefined;
  return {
    type: packet.readUInt8(0),
    seq: packet.readUInt32BE(4),
    capturedAt: packet.readDoubleBE(8),
    jpeg: packet.subarray(headerLength),
  };
}
