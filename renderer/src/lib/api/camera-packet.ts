/**
 * The binary camera message of /ws (server/camera/README-camera.md, "Dashboard socket"): a
 * big-endian header (type, header length, reserved, seq, capturedAt as float64 ms since the epoch)
 * and then the JPEG. The header length is read from the message, so a longer header of a later
 * server still finds the picture.
 */
export const PACKET_JPEG = 1;
const MIN_HEADER = 16;

export interface CameraPacket {
  seq: number;
  /** When the picture reached the cockpit (the cockpit's clock), epoch ms. */
  capturedAt: number;
  /** The JPEG bytes, a view into the message (no copy). */
  jpeg: Uint8Array<ArrayBuffer>;
}

/** Reads one binary message; null for anything that is not a JPEG picture. */
export function parseCameraPacket(data: ArrayBuffer): CameraPacket | null {
  if (data.byteLength < MIN_HEADER) return null;
  const view = new DataView(data);
  const headerLength = view.getUint8(1);
  if (view.getUint8(0) !== PACKET_JPEG || headerLength < MIN_HEADER || headerLength >= data.byteLength) return null;
  const capturedAt = view.getFloat64(8);
  if (!Number.isFinite(capturedAt)) return null;
  return { seq: view.getUint32(4), capturedAt, jpeg: new Uint8Array(data, headerLength) };
}
