/** H.264 pieces of the WebRTC source: NAL splitting, SPS picture size, RTP depacketising. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { packetizeAccessUnit } from '../../sim/rtp-h264.ts';
import { joinAnnexB, nalType, splitAnnexB } from './nal.ts';
import { createRtpDepacketizer, type RtpInput } from './rtp-depacketizer.ts';
import { spsPictureSize } from './sps.ts';

function encode(size: string, extra: string[] = [], frames = 1): Buffer {
  return execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=15`],
    ...['-frames:v', String(frames), '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...(extra.includes('-pix_fmt') ? extra : ['-pix_fmt', 'yuv420p', ...extra]),
    ...['-f', 'h264', 'pipe:1'],
  ]);
}

describe('NAL units', () => {
  it('splits an Annex-B stream and joins it back', () => {
    const stream = encode('320x240', ['-profile:v', 'baseline']);
    const nals = splitAnnexB(stream);
    expect(nals.map(nalType)).toEqual(expect.arrayContaining([7, 8, 5]));
    expect(splitAnnexB(joinAnnexB(nals))).toEqual(nals);
  });

  it('tells three- and four-byte start codes apart and keeps what is between them', () => {
    const stream = Buffer.from([
      ...[0, 0, 0, 1, 0x67, 0, 0, 3, 1], // SPS holding an emulation-prevention byte
      ...[0, 0, 1, 0x68, 0xce],
      ...[0, 0, 1], // empty: dropped
      ...[0, 0, 0, 1, 0x65, 1, 2, 0], // the last NAL keeps its trailing zero
    ]);
    expect(splitAnnexB(stream).map((nal) => [...nal])).toEqual([
      [0x67, 0, 0, 3, 1],
      [0x68, 0xce],
      [0x65, 1, 2, 0],
    ]);
    expect(splitAnnexB(Buffer.from([1, 2, 3]))).toEqual([]);
  });
});

describe('SPS picture size', () => {
  it.each([
    ['640x360', ['-profile:v', 'baseline']], // coded 640x368, cropped
    ['320x240', ['-profile:v', 'baseline']],
    ['1280x720', ['-pix_fmt', 'yuv420p']], // High profile
    ['176x144', ['-pix_fmt', 'yuv444p']], // High 4:4:4, chroma_format_idc 3
    ['352x288', ['-pix_fmt', 'yuv420p', '-flags', '+ildct+ilme', '-x264-params', 'interlaced=1']], // field coding
  ])('reads %s', (size, extra) => {
    const sps = splitAnnexB(encode(size, extra)).find((nal) => nalType(nal) === 7);
    const [width, height] = size.split('x').map(Number);
    expect(spsPictureSize(sps ?? Buffer.alloc(0))).toEqual({ width, height });
  });

  it('gives up on something that is not an SPS', () => {
    expect(spsPictureSize(Buffer.from([0x67]))).toBeUndefined();
  });
});

/** RTP packets for access units, as the simulator's packetiser sends them. */
function packets(units: Buffer[][], firstTimestamp = 1000): RtpInput[] {
  return units.flatMap((nals, i) =>
    packetizeAccessUnit(nals, 1200).map((p) => ({ ...p, timestamp: firstTimestamp + i * 6000 })),
  );
}

describe('RTP depacketiser', () => {
  const stream = encode('640x360', ['-profile:v', 'baseline', '-g', '3', '-x264-params', 'aud=1'], 6);
  // Access units as the encoder made them, delimiters (AUD) dropped as the depacketiser does.
  const units = splitAnnexB(stream)
    .reduce<Buffer[][]>((acc, nal) => (nalType(nal) === 9 ? [...acc, []] : (acc.at(-1)?.push(nal), acc)), [])
    .filter((u) => u.length > 0);

  it('rebuilds every access unit from single-NAL and FU-A packets, keyframes marked', () => {
    const asks: number[] = [];
    const d = createRtpDepacketizer(() => asks.push(1));
    const out = packets(units)
      .map((p) => d.push(p))
      .filter((au) => au !== undefined);
    expect(out.map((au) => au.data)).toEqual(units.map((u) => joinAnnexB(u)));
    expect(out.map((au) => au.keyframe)).toEqual([true, false, false, true, false, false]);
    expect(asks).toEqual([]);
  });

  it('reads STAP-A aggregates', () => {
    const [sps, pps, ...rest] = units[0] ?? [];
    const stap = Buffer.concat([
      Buffer.from([0x78]),
      ...[sps, pps].flatMap((n) => [Buffer.from([0, n?.length ?? 0]), n ?? Buffer.alloc(0)]),
    ]);
    const d = createRtpDepacketizer(() => {});
    expect(d.push({ payload: stap, marker: false, timestamp: 5 })).toBeUndefined();
    const au = packets([rest], 5)
      .map((p) => d.push(p))
      .find((x) => x !== undefined);
    expect(au?.data).toEqual(joinAnnexB(units[0] ?? []));
  });

  it('after a loss, drops pictures until the next keyframe and asks for one', () => {
    const asks: number[] = [];
    const d = createRtpDepacketizer(() => asks.push(1));
    const all = packets(units);
    const firstOfSecond = all.findIndex((p) => p.timestamp === 7000);
    const out = all.flatMap((p, i) => {
      if (i === firstOfSecond) {
        d.lost(); // the packet that should come here is gone
        return [];
      }
      const au = d.push(p);
      return au ? [au] : [];
    });
    expect(out.map((au) => au.keyframe)).toEqual([true, true, false, false]);
    expect(asks.length).toBeGreaterThanOrEqual(1);
  });

  it('emits nothing before the first keyframe', () => {
    const asks: number[] = [];
    const d = createRtpDepacketizer(() => asks.push(1));
    const out = packets(units.slice(1))
      .map((p) => d.push(p))
      .filter((au) => au !== undefined);
    expect(out.map((au) => au.keyframe)).toEqual([true, false, false]);
    expect(asks.length).toBe(2);
  });
});
