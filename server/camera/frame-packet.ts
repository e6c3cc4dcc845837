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
import type { CameraPacket, CameraPacketLayout } from '../contract/camera-packet.ts';
import type { CameraFrame } from './frame.ts';

export const FRAME_PACKET_JPEG: CameraPacketLayout['jpegType'] = 1;
export const FRAME_PACKET_HEADER: CameraPacketLayout['headerLength'] = 16;
const SEQ_AT: CameraPacketLayout['seqOffset'] = 4;
const CAPTURED_AT: CameraPacketLayout['capturedAtOffset'] = 8;

export function encodeFramePacket(frame: CameraFrame & { jpeg: Buffer }): Buffer {
  const header = Buffer.alloc(FRAME_PACKET_HEADER);
  header.writeUInt8(FRAME_PACKET_JPEG, 0);
  header.writeUInt8(FRAME_PACKET_HEADER, 1);
  header.writeUInt32BE(frame.seq >>> 0, SEQ_AT);
  header.writeDoubleBE(frame.capturedAt, CAPTURED_AT);
  return Buffer.concat([header, frame.jpeg]);
}

/** A decoded message with its type byte, whatever it says (the tests read back what was sent). */
export interface FramePacket extends CameraPacket<Buffer> {
  type: number;
}

export function decodeFramePacket(packet: Buffer): FramePacket | undefined {
  if (packet.length < 2) return undefined;
  const headerLength = packet.readUInt8(1);
  if (headerLength < FRAME_PACKET_HEADER || packet.length < headerLength) return undefined;
  return {
    type: packet.readUInt8(0),
    seq: packet.readUInt32BE(SEQ_AT),
    capturedAt: packet.readDoubleBE(CAPTURED_AT),
    jpeg: packet.subarray(headerLength),
  };
}
