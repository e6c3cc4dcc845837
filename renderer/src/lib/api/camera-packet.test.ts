import { describe, expect, it } from 'vitest';
import { parseCameraPacket } from './camera-packet.ts';

function packet(options: { type?: number; header?: number; seq?: number; at?: number; jpeg?: number[] } = {}) {
  const header = options.header ?? 16;
  const jpeg = options.jpeg ?? [0xff, 0xd8, 0xff, 0xd9];
  const buffer = new ArrayBuffer(header + jpeg.length);
  const view = new DataView(buffer);
  view.setUint8(0, options.type ?? 1);
  view.setUint8(1, header);
  view.setUint32(4, options.seq ?? 7);
  view.setFloat64(8, options.at ?? 1_767_225_600_123.5);
  new Uint8Array(buffer, header).set(jpeg);
  return buffer;
}

describe('parseCameraPacket', () => {
  it('reads seq, capturedAt (big-endian) and the JPEG after the header', () => {
    const parsed = parseCameraPacket(packet({ seq: 0xfffffffe }));
    expect(parsed?.seq).toBe(0xfffffffe);
    expect(parsed?.capturedAt).toBe(1_767_225_600_123.5);
    expect([...(parsed?.jpeg ?? [])]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
  });

  it('honours a longer header', () => {
    expect([...(parseCameraPacket(packet({ header: 20, jpeg: [1, 2] }))?.jpeg ?? [])]).toEqual([1, 2]);
  });

  it('refuses other types, short messages and empty pictures', () => {
    expect(parseCameraPacket(packet({ type: 2 }))).toBeNull();
    expect(parseCameraPacket(new ArrayBuffer(8))).toBeNull();
    expect(parseCameraPacket(packet({ jpeg: [] }))).toBeNull();
    expect(parseCameraPacket(packet({ header: 12 }))).toBeNull();
    expect(parseCameraPacket(packet({ at: Number.NaN }))).toBeNull();
  });
});
