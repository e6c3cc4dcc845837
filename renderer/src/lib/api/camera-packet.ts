/**
 * The binary camera message of /ws (server/camera/README-camera.md, "Dashboard socket"): a
 * big-endian header (type, header length, reserved, seq, capturedAt as float64 ms since the epoch)
 * and then the JPEG. The header length is read from the message, so a longer header of a later
 * server still finds the picture.
 */
import type { CameraPacket, CameraPacketLayout } from '../../../../server/contract/index.ts';

export const PACKET_JPEG: CameraPacketLayout['jpegType'] = 1;
const MIN_HEADER: CameraPacketLayout['headerLength'] = 16;
const SEQ_AT: CameraPacketLayout['seqOffset'] = 4;
const CAPTURED_AT: CameraPacketLayout['capturedAtOffset'] = 8;

/** A camera message as the browser holds it: the JPEG is a view into the message (no copy). */
export type BrowserCameraPacket = CameraPacket<Uint8Array<ArrayBuffer>>;

/** Reads one binary message; null for anything that is not a JPEG picture. */
export function parseCameraPacket(data: ArrayBuffer): BrowserCameraPacket | null {
  if (data.byteLength < MIN_HEADER) return null;
  const view = new DataView(data);
  const headerLength = view.getUint8(1);
  if (view.getUint8(0) !== PACKET_JPEG || headerLength < MIN_HEADER || headerLength >= data.byteLength) return null;
  const capturedAt = view.getFloat64(CAPTURED_AT);
  if (!Number.isFinite(capturedAt)) return null;
  return { seq: view.getUint32(SEQ_AT), capturedAt, jpeg: new Uint8Array(data, headerLength) };
}
