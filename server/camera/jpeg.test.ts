import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { createJpegSplitter, isWholeJpeg, jpegSize } from './jpeg.ts';

/** A recorded MJPEG byte stream: ten pictures of ffmpeg's test source, back to back. */
let stream: Buffer;
let pictures: Buffer[];

beforeAll(() => {
  stream = execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
    ...['-frames:v', '10', '-c:v', 'mjpeg', '-q:v', '4', '-f', 'mjpeg', 'pipe:1'],
  ]);
  pictures = [];
  createJpegSplitter((j) => pictures.push(j)).push(stream);
});

/** A comment segment holding bytes that look like EOI, inserted after SOI. */
function withFakeEoi(jpeg: Buffer): Buffer {
  const text = Buffer.from([0x41, 0xff, 0xd9, 0x42]);
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0, text.length + 2]), text]);
  return Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]);
}

describe('MJPEG splitting', () => {
  it('cuts a recorded stream into its ten pictures, each a whole JPEG of the right size', async () => {
    expect(pictures).toHaveLength(10);
    expect(Buffer.concat(pictures).equals(stream)).toBe(true);
    for (const jpeg of pictures) {
      expect(isWholeJpeg(jpeg)).toBe(true);
      expect(jpegSize(jpeg)).toEqual({ width: 320, height: 240 });
      expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    }
  });

  it('gives the same pictures whatever the chunking, skipping garbage between them', () => {
    const noisy = Buffer.concat([Buffer.from('junk'), ...pictures.flatMap((p) => [p, Buffer.from([0, 1, 2])])]);
    for (const size of [1, 7, 4096]) {
      const out: Buffer[] = [];
      const splitter = createJpegSplitter((j) => out.push(j));
      for (let at = 0; at < noisy.length; at += size) splitter.push(noisy.subarray(at, at + size));
      expect(out).toEqual(pictures);
    }
  });

  it('does not end a picture at an EOI-looking pair inside a segment', () => {
    const tricky = withFakeEoi(pictures[0] ?? Buffer.alloc(0));
    const out: Buffer[] = [];
    createJpegSplitter((j) => out.push(j)).push(Buffer.concat([tricky, pictures[1] ?? Buffer.alloc(0)]));
    expect(out.map((j) => j.length)).toEqual([tricky.length, pictures[1]?.length]);
  });

  it('drops a picture that runs past the limit, or is cut short, and resynchronises on the next one', () => {
    const out: Buffer[] = [];
    const runaway = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]), Buffer.alloc(5000, 0x11)]);
    const limited = createJpegSplitter((j) => out.push(j), 2000);
    limited.push(runaway);
    limited.push(pictures[2] ?? Buffer.alloc(0));
    expect(out).toEqual([pictures[2]]);
    const cut = createJpegSplitter((j) => out.push(j));
    cut.push(Buffer.concat([(pictures[3] ?? Buffer.alloc(0)).subarray(0, 700), pictures[4] ?? Buffer.alloc(0)]));
    expect(out).toEqual([pictures[2], pictures[4]]);
  });
});

describe('jpegSize', () => {
  it('reads the frame header, and nothing from what is not a JPEG', () => {
    expect(jpegSize(withFakeEoi(pictures[0] ?? Buffer.alloc(0)))).toEqual({ width: 320, height: 240 });
    expect(jpegSize(Buffer.from('not a jpeg'))).toBeUndefined();
  });
});
