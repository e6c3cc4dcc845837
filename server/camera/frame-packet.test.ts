import { describe, expect, it } from 'vitest';
import { decodeFramePacket, encodeFramePacket, FRAME_PACKET_HEADER } from './frame-packet.ts';

describe('/ws camera frame packet', () => {
  it('is a 16-byte header (type, header length, seq, capturedAt as float64) then the JPEG', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 1, 2, 3, 0xff, 0xd9]);
    const packet = encodeFramePacket({
      jpeg,
      width: 1,
      height: 1,
      capturedAt: 1_763_700_000_123.5,
      seq: 4_000_000_001,
    });
    expect(packet.length).toBe(FRAME_PACKET_HEADER + jpeg.length);
    expect([...packet.subarray(0, 4)]).toEqual([1, 16, 0, 0]);
    // What a browser does with a DataView (big-endian by default).
    const view = new DataView(packet.buffer, packet.byteOffset, packet.length);
    expect(view.getUint32(4)).toBe(4_000_000_001);
    expect(view.getFloat64(8)).toBe(1_763_700_000_123.5);
    expect(decodeFramePacket(packet)).toEqual({ type: 1, seq: 4_000_000_001, capturedAt: 1_763_700_000_123.5, jpeg });
  });

  it('rejects a packet shorter than its header', () => {
    expect(decodeFramePacket(Buffer.from([1, 16, 0]))).toBeUndefined();
  });
});
