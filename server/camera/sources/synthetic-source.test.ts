import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../testing/manual-clock.ts';
import type { CameraFrame } from '../frame.ts';
import { parseCameraSetting } from '../camera-setting.ts';
import { createSyntheticSource } from './synthetic-source.ts';

describe('synthetic camera source', () => {
  it('sends a JPEG at start, then one per period of the clock, and none after stop', async () => {
    const clock = createManualClock(5000);
    const source = createSyntheticSource({ fps: 10, clock });
    const frames: CameraFrame[] = [];
    await source.start((frame) => frames.push(frame), () => {});
    expect(frames.map((f) => f.seq)).toEqual([0]);
    clock.advance(299);
    expect(frames.map((f) => [f.seq, f.capturedAt])).toEqual([
      [0, 5000],
      [1, 5100],
      [2, 5200],
    ]);
    await source.stop();
    clock.advance(1000);
    expect(frames).toHaveLength(3);
    expect(clock.pending()).toBe(0);
  });

  it('draws a 640 × 360 picture that decodes and changes from frame to frame', async () => {
    const clock = createManualClock();
    const source = createSyntheticSource({ clock });
    const frames: CameraFrame[] = [];
    await source.start((frame) => frames.push(frame), () => {});
    clock.advance(100);
    await source.stop();
    const [first, second] = frames;
    const meta = await sharp(first?.jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 640, 360]);
    expect(first?.jpeg?.equals(second?.jpeg as Buffer)).toBe(false);
  });

  it('is chosen by ROBOT_CAMERA=synthetic', () => {
    expect(parseCameraSetting('synthetic')).toEqual({ kind: 'synthetic' });
  });
});
