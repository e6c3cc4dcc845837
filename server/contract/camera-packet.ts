/**
 * The binary camera message of /ws (server/camera/README-camera.md, "Dashboard socket"): a
 * big-endian header, then the JPEG. The layout is written as literal types so the cockpit's encoder
 * (server/camera/frame-packet.ts) and the dashboard's reader (renderer/src/lib/api/camera-packet.ts)
 * state their numbers against one declaration: a number that drifts does not compile.
 */
export interface CameraPacketLayout {
  /** Byte 0, the message type: a JPEG picture. */
  jpegType: 1;
  /** Byte 1, the header length in bytes: the JPEG starts there (a reader skips a longer header). */
  headerLength: 16;
  /** Bytes 4-7: seq, unsigned. */
  seqOffset: 4;
  /** Bytes 8-15: capturedAt, float64, milliseconds since the epoch on the cockpit's clock. */
  capturedAtOffset: 8;
}

/** A decoded camera message; `Bytes` is a Buffer on the cockpit, a view into the message in the browser. */
export interface CameraPacket<Bytes> {
  seq: number;
  /** When the picture reached the cockpit (the cockpit's clock), epoch ms. */
  capturedAt: number;
  /** The JPEG bytes. */
  jpeg: Bytes;
}
