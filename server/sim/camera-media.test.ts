/** The simulated camera's encoder output (H.264 in FLV) and its RTP packetisation (RFC 6184). */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../log.ts';
import { startH264Encoder } from './camera-encoder.ts';
import { renderFrame } from './camera-render.ts';
import { createFlvReader, type EncodedAccessUnit } from './flv-reader.ts';
import { createRtpStream, packetizeAccessUnit } from './rtp-h264.ts';
import { waitFor } from './test-helpers.ts';

const nalType = (nal: Buffer | undefined): number => (nal?.[0] ?? 0) & 0x1f;

function recordedFlv(frames: number): Buffer {
  return execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
    ...['-frames:v', String(frames), '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency'],
    ...['-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-g', '5', '-f', 'flv', 'pipe:1'],
  ]);
}

describe('FLV reader', () => {
  it('yields one access unit per frame, keyframes led by SPS and PPS, however the bytes are chunked', () => {
    const flv = recordedFlv(12);
    const whole: EncodedAccessUnit[] = [];
    createFlvReader((au) => whole.push(au)).push(flv);
    const chunked: EncodedAccessUnit[] = [];
    const reader = createFlvReader((au) => chunked.push(au));
    for (let at = 0; at < flv.length; at += 7) reader.push(flv.subarray(at, at + 7));

    expect(whole).toHaveLength(12);
    expect(chunked).toEqual(whole);
    expect(whole.map((au) => au.keyframe)).toEqual([
      true,
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      true,
      false,
    ]);
    expect(whole[0]?.nals.map(nalType).slice(0, 2)).toEqual([7, 8]);
    expect(whole[0]?.nals.map(nalType)).toContain(5);
    expect(whole[1]?.nals.map(nalType)).toContain(1);
  });
});

describe('RTP packetiser', () => {
  it('sends small NAL units whole, fragments large ones as FU-A, and marks the last packet', () => {
    const sps = Buffer.from([0x67, 1, 2, 3]);
    const aud = Buffer.from([0x09, 0xf0]);
    const big = Buffer.concat([Buffer.from([0x65]), Buffer.alloc(3000, 7)]);
    const packets = packetizeAccessUnit([aud, sps, big], 1200);
    expect(packets[0]).toEqual({ payload: sps, marker: false });
    const fus = packets.slice(1);
    expect(fus).toHaveLength(3);
    expect(fus.map((p) => (p.payload[0] ?? 0) & 0x1f)).toEqual([28, 28, 28]);
    expect(fus.map((p) => (p.payload[1] ?? 0) & 0xc0)).toEqual([0x80, 0x00, 0x40]);
    expect(fus.map((p) => p.marker)).toEqual([false, false, true]);
    expect(fus.every((p) => p.payload.length <= 1200 && ((p.payload[1] ?? 0) & 0x1f) === 5)).toBe(true);
    const rebuilt = Buffer.concat([
      Buffer.from([((fus[0]?.payload[0] ?? 0) & 0xe0) | 5]),
      ...fus.map((p) => p.payload.subarray(2)),
    ]);
    expect(rebuilt.equals(big)).toBe(true);
  });

  it('numbers packets in sequence and stamps one access unit with one 90 kHz timestamp', () => {
    const stream = createRtpStream();
    const first = stream.packets([Buffer.alloc(2500, 1)], 1000);
    const second = stream.packets([Buffer.alloc(10, 1)], 1100);
    const all = [...first, ...second];
    for (let i = 1; i < all.length; i += 1) {
      expect(all[i]?.header.sequenceNumber).toBe(((all[i - 1]?.header.sequenceNumber ?? 0) + 1) & 0xffff);
    }
    expect(new Set(first.map((p) => p.header.timestamp)).size).toBe(1);
    expect(((second[0]?.header.timestamp ?? 0) - (first[0]?.header.timestamp ?? 0)) >>> 0).toBe(9000);
  });
});

describe('session encoder', () => {
  it('turns rendered frames into H.264 access units, starting with a keyframe', async () => {
    const units: EncodedAccessUnit[] = [];
    const encoder = startH264Encoder({
      width: 640,
      height: 360,
      fps: 15,
      gop: 30,
      log: silentLog,
      onAccessUnit: (au) => units.push(au),
      onExit: (reason) => {
        throw new Error(reason);
      },
    });
    const frame = await renderFrame({ yaw: 0, pitch: 0, roll: 0, face: null, clockMs: 0, width: 640, height: 360 });
    for (let i = 0; i < 3; i += 1) {
      await waitFor(() => encoder.encode(frame), 5000, 5);
      await waitFor(() => units.length > i, 5000, 5);
    }
    encoder.close();
    expect(units[0]?.keyframe).toBe(true);
    expect(units[0]?.nals.map(nalType).slice(0, 2)).toEqual([7, 8]);
    expect(units.slice(1).every((au) => !au.keyframe)).toBe(true);
  });
});
